/**
 * Caches behind Searcher.moreLikeThis.
 *
 * - MltTermsCache: the terms selected for a source document, keyed by the
 *   document's immutable identity (segment id, local doc) and the selection
 *   options, shared by all searchers of one index (across snapshots). Term
 *   selection depends on the document (immutable) and on the index statistics,
 *   which change slowly: an entry is reused in the snapshot it was computed in,
 *   and in a later snapshot only when the index holds at least
 *   `minReuseDocs` docs and its doc count moved by at most `maxDrift` (a
 *   fraction) since. Small indexes therefore always select exactly. Entries
 *   of segments a snapshot no longer has are dropped when a later snapshot asks
 *   (util/segment-cache.ts), so merges do not leave them filling the cache.
 * - MltCandidates: per snapshot (one per Searcher), the unfiltered best
 *   matches of a source document as global doc ids with scores, best first
 *   (score descending, then doc id: the order of every top-k of the engine).
 *   Filtering that list by a viewer's filter gives exactly the filtered top-k
 *   when enough survive, or when the list holds every match.
 * Both are bounded; least recently used entries (segments) are evicted first.
 */
import { SegmentCache } from '../util/segment-cache.ts';
import type { Language } from '../analysis/types.ts';
import type { MoreLikeThisOptions } from './more-like-this.ts';

export interface SelectedTerms {
  terms: { term: string; score: number }[];
  /** The source document's language (the generated query's). */
  language: Language;
  numDocs: number;
  generation: number;
}

/** Best matches, best first, as parallel arrays (compact: many lists are kept). */
export interface MltCandidateList {
  docs: Int32Array;
  scores: Float64Array;
  /** True when the list holds every match (fewer than asked for were found). */
  complete: boolean;
}

export function candidateList(hits: readonly { score: number; doc: number }[], asked: number): MltCandidateList {
  const docs = new Int32Array(hits.length);
  const scores = new Float64Array(hits.length);
  hits.forEach((h, i) => {
    docs[i] = h.doc;
    scores[i] = h.score;
  });
  return { docs, scores, complete: hits.length < asked };
}

export interface MltTermsCacheOptions {
  /** Entries kept. Default 20,000 (an entry of 25 selected terms holds about 1.2 KB of heap). */
  maxEntries: number;
  /** Reuse across snapshots only at or above this many docs. Default 10,000. */
  minReuseDocs: number;
  /** Largest relative change of the doc count across which entries are reused. Default 0.02. */
  maxDrift: number;
}

export class MltTermsCache {
  private readonly lru: SegmentCache<string, SelectedTerms>;
  private readonly o: MltTermsCacheOptions;

  constructor(options: Partial<MltTermsCacheOptions> = {}) {
    this.o = { maxEntries: 20_000, minReuseDocs: 10_000, maxDrift: 0.02, ...options };
    this.lru = new SegmentCache(this.o.maxEntries);
  }

  /** Drops the entries of segments not in `liveIds`, for a snapshot later than the last one asked. */
  retain(generation: number, liveIds: () => Iterable<string>): void {
    this.lru.retain(generation, liveIds);
  }

  /** Selected terms of `key` in `segment` still usable at (generation, numDocs), else undefined. */
  get(segment: string, key: string, generation: number, numDocs: number): SelectedTerms | undefined {
    const e = this.lru.get(segment, key);
    if (e === undefined) return undefined;
    if (e.generation === generation) return e;
    if (numDocs < this.o.minReuseDocs || Math.abs(numDocs - e.numDocs) > this.o.maxDrift * numDocs) return undefined;
    return e;
  }

  set(segment: string, key: string, entry: SelectedTerms): void {
    this.lru.set(segment, key, entry);
  }

  get size(): number {
    return this.lru.size;
  }
}

/** Terms caches by owner (the filter cache an index shares across its searchers). */
const termsCaches = new WeakMap<object, MltTermsCache>();

export function termsCacheOf(owner: object): MltTermsCache {
  let c = termsCaches.get(owner);
  if (c === undefined) termsCaches.set(owner, (c = new MltTermsCache()));
  return c;
}

/** Cache key part of the options that influence term selection and scoring. */
export function mltOptionsKey(fields: readonly string[], o: Partial<MoreLikeThisOptions>): string {
  return `${fields.join(',')}|${o.maxQueryTerms ?? ''}|${o.minTermFreq ?? ''}|${o.maxDocFreqRatio ?? ''}|${o.minWordLength ?? ''}`;
}
