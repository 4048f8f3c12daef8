/**
 * More-like-this in a Searcher's snapshot: the docs most similar to a source
 * doc by its top tf-idf terms (mlt/more-like-this.ts), scored as an OR of those
 * terms. The selected terms are cached per source doc version across snapshots,
 * and the unfiltered best matches per snapshot once a second filter asks
 * (mlt/mlt-cache.ts); either way the result is exactly the filtered query's for
 * the selected terms.
 */
import { selectTerms } from '../mlt/more-like-this.ts';
import type { MoreLikeThisOptions } from '../mlt/more-like-this.ts';
import { candidateList, mltOptionsKey, termsCacheOf } from '../mlt/mlt-cache.ts';
import type { MltCandidateList, SelectedTerms } from '../mlt/mlt-cache.ts';
import { BoundedMap } from '../util/bounded-map.ts';
import type { SegmentReader } from '../segment/types.ts';
import { compileFilter, filterKey } from '../query/filter.ts';
import type { Filter, Hit } from '../query/types.ts';
import { MAX_LIMIT } from './searcher-core.ts';
import type { DocLocation, SearcherCore } from './searcher-core.ts';

/** More-like-this queries (rare terms) score a segment exhaustively up to this many postings. */
const MLT_EXHAUSTIVE_COST = 16384;
/** Unfiltered more-like-this matches kept per source doc and snapshot (limits up to this use them). */
const MLT_CANDIDATES = 64;
/** Source docs whose candidates a searcher keeps. */
const MLT_CANDIDATE_ENTRIES = 20_000;
/** Terms whose more-like-this df a searcher keeps (per field list; cleared when full). */
const MLT_DF_ENTRIES = 500_000;

export type MoreLikeThisRequest = {
  filter?: Filter;
  limit: number;
  fields?: readonly string[];
} & Partial<MoreLikeThisOptions>;

export class SimilarDocs {
  /** Per source doc: the filter key of its first more-like-this, then (from a second filter on) its candidates. */
  private readonly mltCandidates = new BoundedMap<string, MltCandidateList | string>(MLT_CANDIDATE_ENTRIES);
  private readonly filterKeys = new Map<string, string>();
  /** More-like-this term selection: max df over the searched fields per term (see mltTerms), by field list. */
  private readonly mltDf = new Map<string, Map<string, number>>();
  private bySegmentSize: SegmentReader[] | undefined;

  constructor(private readonly core: SearcherCore) {}

  /**
   * Docs most similar to `source` by its top tf-idf terms; the doc itself excluded.
   * `fields`: the text fields whose terms are considered and on which the
   * generated query is scored (default: all). The source is a key or a hit
   * (found by its ref when it came from this snapshot, else by its key).
   */
  moreLikeThis(source: string | Hit, opts: MoreLikeThisRequest): Hit[] {
    const core = this.core;
    if (opts.filter !== undefined) core.validate(opts.filter);
    const limit = Math.max(0, Math.min(MAX_LIMIT, Math.floor(opts.limit)));
    const loc = core.find(source);
    if (!loc || limit === 0) return [];
    const from = opts.fields ? core.fieldSubset(opts.fields) : core.fields;
    const okey = mltOptionsKey(
      from.map((f) => f.name),
      opts,
    );
    const selected = this.mltTerms(loc, from, opts, okey);
    if (selected.terms.length === 0) return [];
    // the OR of the selected (distinct) terms, as termsQuery(selected.terms) would parse
    const query = { terms: selected.terms };
    const exclude = core.bases[loc.segment] + loc.doc;
    const fkey = opts.filter ? this.internKey(filterKey(opts.filter)) : '';
    if (limit <= MLT_CANDIDATES) {
      // A source doc asked for under a second filter (another viewer) gets its unfiltered best
      // matches computed once per snapshot; every filter then takes its hits from that list.
      const ckey = `${exclude}|${okey}`;
      let c = this.mltCandidates.get(ckey);
      if (c !== undefined && typeof c === 'string' && c !== fkey) {
        const hits = core.topDocs(query, undefined, MLT_CANDIDATES, exclude, from, MLT_EXHAUSTIVE_COST).top.sorted();
        this.mltCandidates.set(ckey, (c = candidateList(hits, MLT_CANDIDATES)));
      }
      if (c !== undefined && typeof c !== 'string') {
        const kept = this.accepted(c, opts.filter, fkey, limit);
        if (kept.length >= limit || c.complete) return kept;
      } else if (c === undefined) this.mltCandidates.set(ckey, fkey);
    }
    const { top } = core.topDocs(query, opts.filter, limit, exclude, from, MLT_EXHAUSTIVE_COST);
    return top.sorted().map((h) => core.hit(h.doc, h.score));
  }

  /** One string per distinct filter key (candidate markers hold it; bounded). */
  private internKey(k: string): string {
    const known = this.filterKeys.get(k);
    if (known !== undefined) return known;
    if (this.filterKeys.size >= 1000) this.filterKeys.clear();
    this.filterKeys.set(k, k);
    return k;
  }

  /** Hits of the first `limit` candidates (global docs of this snapshot, all live) that `filter` accepts, in order. */
  private accepted(c: MltCandidateList, filter: Filter | undefined, fkey: string, limit: number): Hit[] {
    const core = this.core;
    const accept = new Map<number, (doc: number) => boolean>();
    const out: Hit[] = [];
    for (let i = 0; i < c.docs.length && out.length < limit; i++) {
      if (filter) {
        const { segment, doc } = core.split(c.docs[i]);
        let a = accept.get(segment);
        if (a === undefined)
          accept.set(
            segment,
            (a = compileFilter(filter, fkey, core.segments[segment], core.cache, c.docs.length).matches),
          );
        if (!a(doc)) continue;
      }
      out.push(core.hit(c.docs[i], c.scores[i]));
    }
    return out;
  }

  /** The source doc's more-like-this terms: cached by (segment id, doc) across snapshots (see mlt/mlt-cache.ts). */
  private mltTerms(
    loc: DocLocation,
    from: { name: string }[],
    opts: Partial<MoreLikeThisOptions>,
    okey: string,
  ): SelectedTerms {
    const core = this.core;
    const r = core.segments[loc.segment];
    const tkey = `${loc.doc}\u0000${okey}`;
    const terms = termsCacheOf(core.cache);
    terms.retain(core.generation, () => core.segments.map((s) => s.id));
    const known = terms.get(r.id, tkey, core.generation, core.numDocs);
    if (known) return known;
    const texts = r.text(loc.doc);
    const lang = r.language(loc.doc);
    const names = new Set(from.map((f) => f.name));
    const fields = core.fieldsBySize().filter((name) => names.has(name));
    const entry: SelectedTerms = {
      terms: selectTerms(
        from.map((f) => texts[f.name] ?? ''),
        lang,
        (text, l) => core.analyzeShared(text, l),
        { numDocs: core.numDocs, docFreq: this.maxDocFreq(fields) },
        opts,
      ),
      language: lang,
      numDocs: core.numDocs,
      generation: core.generation,
    };
    terms.set(r.id, tkey, entry);
    return entry;
  }

  /**
   * The max df over `fields` per term, up to a cap, kept for this snapshot: exact (>= 0) or,
   * when it exceeded the cap it was asked under, -(the value found), which answers any lower cap.
   */
  private maxDocFreq(fields: string[]): (term: string, atMost: number) => number {
    const fkey = fields.join('\u0000');
    let memo = this.mltDf.get(fkey);
    if (memo === undefined) this.mltDf.set(fkey, (memo = new Map()));
    if (memo.size >= MLT_DF_ENTRIES) memo.clear();
    const dfs = memo;
    const segs = (this.bySegmentSize ??= [...this.core.segments].sort((a, b) => b.maxDoc - a.maxDoc));
    return (term: string, atMost: number) => {
      const m = dfs.get(term);
      if (m !== undefined) {
        if (m >= 0) return m;
        if (-m > atMost) return -m;
      }
      // Read from the segments' dictionaries (largest first) rather than through the
      // snapshot statistics: most of a document's rare terms are asked for once.
      let df = 0;
      for (const f of fields) {
        let d = 0;
        for (const r of segs) {
          d += r.termStats(f, term)?.docFreq ?? 0;
          if (d > atMost) break;
        }
        if (d > df) df = d;
        if (df > atMost) break;
      }
      dfs.set(term, df > atMost ? -df : df);
      return df;
    };
  }
}
