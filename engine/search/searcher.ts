/**
 * Searcher: a fixed snapshot of segments answering searches, lookups by key,
 * keyword lookups, highlights, summaries, "more like this" and near-duplicate
 * lookups. A facade: each concern is its own module over the shared
 * SearcherCore (searcher-core.ts: segments, statistics, analyzer, filter cache,
 * hit resolution):
 *  - search-hits.ts: the search request (top k, paging, collapsed duplicates)
 *  - doc-lookup.ts: get by key, liveness, stored fields and keyword values of a hit
 *  - keyword-lookup.ts: keyword columns through their doc lists
 *  - hit-highlights.ts, hit-summary.ts: passages and summaries of a hit
 *  - similar-docs.ts: more-like-this
 *  - duplicate-hits.ts: near-duplicates and collapsing
 */
import type { Language } from '../analysis/types.ts';
import type { ParseLimits } from '../query/parser.ts';
import type { Filter, Hit, ParsedQuery, Passage, SearchRequest, SearchResponse, StoredDoc } from '../query/types.ts';
import type { HighlightOptions } from '../highlight/passages.ts';
import type { SummaryOptions } from '../highlight/summary.ts';
import type { SegmentReader } from '../segment/types.ts';
import { SearcherCore } from './searcher-core.ts';
import type { SearcherOptions } from './searcher-core.ts';
import { searchHits } from './search-hits.ts';
import { DocLookup } from './doc-lookup.ts';
import { keysWithKeyword, keywordCounts, keywordValues, withKeyword } from './keyword-lookup.ts';
import { HitHighlighter } from './hit-highlights.ts';
import { hitSummary } from './hit-summary.ts';
import { SimilarDocs } from './similar-docs.ts';
import type { MoreLikeThisRequest } from './similar-docs.ts';
import { DuplicateHits } from './duplicate-hits.ts';

export type { SearchSchema, SearcherOptions } from './searcher-core.ts';
export { MAX_LIMIT, MAX_OFFSET } from './searcher-core.ts';

export class Searcher {
  readonly generation: number;
  readonly numDocs: number;
  private readonly core: SearcherCore;
  private docs: DocLookup | undefined;
  private highlighter: HitHighlighter | undefined;
  private similar: SimilarDocs | undefined;
  private dups: DuplicateHits | undefined;

  constructor(segments: SegmentReader[], options: SearcherOptions) {
    this.core = new SearcherCore(segments, options);
    this.generation = this.core.generation;
    this.numDocs = this.core.numDocs;
  }

  /** Parse free text with this searcher's analyzer (QueryError past `limits`: query/parser.ts ParseLimits). */
  parse(query: string, language: Language = 'de', limits?: Partial<ParseLimits>): ParsedQuery {
    return this.core.parse(query, language, limits);
  }

  search(req: SearchRequest): SearchResponse {
    return searchHits(this.core, this.duplicates(), req);
  }

  /** Committed live doc by key. */
  get(key: string): StoredDoc | null {
    return this.lookup().get(key);
  }

  /** Distinct values of keyword column `field` carried by at least one live doc, sorted. */
  keywordValues(field: string): string[] {
    return keywordValues(this.core, field);
  }

  /** Live docs per value of keyword column `field` (see keyword-lookup.ts). */
  keywordCounts(field: string): Map<string, number> {
    return keywordCounts(this.core, field);
  }

  /** Live docs carrying any of `values` in keyword column `field` (see keyword-lookup.ts). */
  withKeyword(field: string, values: readonly string[], opts: { filter?: Filter; limit: number }): Hit[] {
    return withKeyword(this.core, field, values, opts);
  }

  /** Keys of every live doc carrying `value` in keyword column `field` (see keyword-lookup.ts). */
  keysWithKeyword(field: string, value: string): Generator<string> {
    return keysWithKeyword(this.core, field, value);
  }

  /** Best passages of the hit's text fields for `query` (see highlight/passages.ts). */
  highlight(
    hit: Hit,
    query: ParsedQuery | string,
    opts: Partial<HighlightOptions> & { fields?: string[]; language?: Language } = {},
  ): Passage[] {
    return (this.highlighter ??= new HitHighlighter(this.core)).highlight(hit, query, opts);
  }

  /** First meaningful sentences of the hit's `field` (default body, else the first text field with text). */
  summary(hit: Hit, opts: Partial<SummaryOptions> & { field?: string } = {}): string {
    return hitSummary(this.core, hit, opts);
  }

  /** Docs most similar to `source` (a key or a hit) by its top tf-idf terms (see similar-docs.ts). */
  moreLikeThis(source: string | Hit, opts: MoreLikeThisRequest): Hit[] {
    return (this.similar ??= new SimilarDocs(this.core)).moreLikeThis(source, opts);
  }

  /** The ids of this snapshot's segments. */
  liveSegmentIds(): string[] {
    return this.core.segments.map((r) => r.id);
  }

  /** Whether the doc version `ref` (segment id, segment-local doc) is live in this snapshot. */
  isLive(ref: { segmentId: string; doc: number }): boolean {
    return this.lookup().isLive(ref);
  }

  /** Stored fields `names` of the hit's doc in this snapshot (see doc-lookup.ts). */
  storedFields(hit: Hit, names: readonly string[]): Record<string, unknown> {
    return this.lookup().storedFields(hit, names);
  }

  /** Values of keyword column `field` of the hit's doc in this snapshot ([] when it has none or is gone). */
  keywordsOf(hit: Hit, field: string): readonly string[] {
    return this.lookup().keywordsOf(hit, field);
  }

  /** Near-duplicates of `source` (a key or a hit), closest first (see duplicate-hits.ts). */
  duplicatesOf(source: string | Hit, opts: { filter?: Filter; limit: number }): Hit[] {
    return this.duplicates().duplicatesOf(source, opts);
  }

  private lookup(): DocLookup {
    return (this.docs ??= new DocLookup(this.core));
  }

  private duplicates(): DuplicateHits {
    return (this.dups ??= new DuplicateHits(this.core));
  }
}
