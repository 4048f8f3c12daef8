/**
 * Searcher: a fixed snapshot of segments answering searches, lookups by key,
 * highlights, summaries, "more like this" and near-duplicate lookups.
 *
 * Statistics (docCount, df, avgdl per field) are summed across the snapshot's
 * segments, so scores do not depend on how docs are split into segments. Hits
 * are ranked by BM25 (see scoring/bm25.ts, query/plan.ts) with ties broken by
 * segment order, then doc id. Top-k uses block-max MaxScore (query/top-k.ts)
 * unless `pruning: false`, which scores every match (same results, slower).
 * Filters compile per segment to cached bitsets or per-doc checks (query/filter.ts).
 */
import { analyze as defaultAnalyze, analyzeQuery as defaultAnalyzeQuery } from './analysis/index.ts';
import type { Language, QueryWord, Token } from './analysis/types.ts';
import { bm25Idf, bm25Params } from './scoring/bm25.ts';
import type { Bm25Params } from './scoring/bm25.ts';
import { NO_MORE_DOCS } from './segment/types.ts';
import type { SegmentReader } from './segment/types.ts';
import { compileFilter, FilterCache, filterKey, validateFilter } from './query/filter.ts';
import { parseQuery, QueryError } from './query/parser.ts';
import type { ParseLimits } from './query/parser.ts';
import { BudgetMeter } from './query/budget.ts';
import { GlobalStats } from './query/plan.ts';
import type { FieldScoring } from './query/plan.ts';
import { executeQuery } from './query/execute.ts';
import type { Filter, Hit, ParsedQuery, Passage, SearchRequest, SearchResponse, StoredDoc } from './query/types.ts';
import { highlightText } from './highlight/passages.ts';
import { graphemeFloor } from './highlight/graphemes.ts';
import type { HighlightOptions } from './highlight/passages.ts';
import { summarize } from './highlight/summary.ts';
import type { SummaryOptions } from './highlight/summary.ts';
import { nearDuplicatesIn, signatureWords, splitSignature } from './similarity/near-duplicates.ts';
import { leaderGroups } from './similarity/leader-groups.ts';
import { selectTerms } from './similarity/more-like-this.ts';
import type { MoreLikeThisOptions } from './similarity/more-like-this.ts';
import { candidateList, mltOptionsKey, termsCacheOf } from './similarity/mlt-cache.ts';
import { BoundedMap } from './bounded-map.ts';
import type { MltCandidateList, SelectedTerms } from './similarity/mlt-cache.ts';

export interface SearchSchema {
  textFields: Record<string, { boost?: number }>;
  keywordFields: string[];
  numericFields: string[];
}

export interface SearcherOptions {
  schema: SearchSchema;
  bm25?: Partial<Bm25Params>;
  generation: number;
  /** Analyzer (default: engine/analysis). Must be the one the index was built with. */
  analyzer?: {
    analyze(text: string, lang: Language): Token[];
    analyzeQuery(text: string, lang: Language): QueryWord[];
  };
  /** Filter bitsets shared across searchers of one index (default: private to this searcher). */
  filterCache?: FilterCache;
  /** Scoring across text fields: 'combined' BM25F (default) or per-field BM25 'sum' (see query/plan.ts). */
  fieldScoring?: FieldScoring;
  /** Dynamic pruning on (default) or exhaustive scoring. */
  pruning?: boolean;
  /**
   * Matches counted exactly before pruning may start. Default 0: pruning starts
   * as soon as k hits are held (fastest; `total` is then a lower bound whenever
   * a clause was pruned). Lucene's default is 1000.
   */
  totalHitsThreshold?: number;
}

/** More-like-this queries (rare terms) score a segment exhaustively up to this many postings. */
const MLT_EXHAUSTIVE_COST = 16384;
/** Unfiltered more-like-this matches kept per source doc and snapshot (limits up to this use them). */
const MLT_CANDIDATES = 64;
/** Source docs whose candidates a searcher keeps. */
const MLT_CANDIDATE_ENTRIES = 20_000;
/** Terms whose more-like-this df a searcher keeps (per field list; cleared when full). */
const MLT_DF_ENTRIES = 500_000;
/** Texts whose tokens are kept for reuse (a hit's fields: its more-like-this terms, then its highlights). */
const SHARED_ANALYSES = 4;
/** Longest text whose tokens are kept. */
const SHARED_ANALYSIS_CHARS = 50_000;

/** A group of near-duplicate hits: its leader (global doc, score, signature halves) and the others. */
interface CollapsedGroup {
  doc: number;
  score: number;
  duplicates?: { doc: number; score: number }[];
}

export const MAX_LIMIT = 10000;

/** A hit's stored payload, read on first access (see Searcher.hit). */
interface LazyStored {
  reader: SegmentReader;
  doc: number;
  value: Record<string, unknown> | undefined;
}

/** `response` with the meter's cut when a budget stopped the search (no `cut` key otherwise). */
function withCut(response: SearchResponse, meter: BudgetMeter | null): SearchResponse {
  if (meter !== null && meter.cut !== null) response.cut = meter.cut;
  return response;
}

/** Key of a hit's LazyStored (a non-enumerable own property: not compared, copied or serialised). */
const LAZY = Symbol('lazyStored');

const STORED_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: { [LAZY]: LazyStored }): Record<string, unknown> {
    const s = this[LAZY];
    return (s.value ??= s.reader.stored(s.doc));
  },
  set(this: { [LAZY]: LazyStored }, v: Record<string, unknown>): void {
    this[LAZY].value = v;
  },
};

/** out[name] = value, also for the name `__proto__` (an own property, as JSON.parse makes it). */
function setField(out: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}
export const MAX_OFFSET = 100000;

export class Searcher {
  readonly generation: number;
  readonly numDocs: number;
  private readonly bases: number[] = [];
  private readonly fields: { name: string; boost: number }[];
  private readonly bm25: Bm25Params;
  private readonly stats: GlobalStats;
  private readonly cache: FilterCache;
  private readonly analyzer: NonNullable<SearcherOptions['analyzer']>;
  private bySize: string[] | undefined;
  private bySegmentSize: SegmentReader[] | undefined;
  /** Per source doc: the filter key of its first more-like-this, then (from a second filter on) its candidates. */
  private readonly mltCandidates = new BoundedMap<string, MltCandidateList | string>(MLT_CANDIDATE_ENTRIES);
  private segmentIds: Map<string, number> | undefined;
  private readonly filterKeys = new Map<string, string>();
  /** Filter objects validated already (see validate). */
  private readonly validFilters = new WeakSet<object>();
  /** More-like-this term selection: max df over the searched fields per term (see mltTerms), by field list. */
  private readonly mltDf = new Map<string, Map<string, number>>();
  /** The last few texts analyzed for more-like-this or highlights, with their tokens (see analyzeShared). */
  private analyzed: { text: string; lang: Language; tokens: Token[] }[] = [];
  /** The term weights of the last highlighted (query, field); see termWeights. */
  private lastWeights: {
    query: ParsedQuery;
    text: string;
    clauses: number;
    byField: Map<string, Map<string, number>>;
  } | null = null;
  /** Text-field subsets by their names (see fieldSubset). */
  private readonly subsets = new Map<string, { name: string; boost: number }[]>();
  /** Per segment: its signatures as 32-bit words, false when not available (see signatureWords). */
  private readonly sigWords: (Uint32Array | false)[] = [];

  constructor(
    private readonly segments: SegmentReader[],
    private readonly options: SearcherOptions,
  ) {
    this.generation = options.generation;
    this.bm25 = bm25Params(options.bm25);
    this.fields = Object.entries(options.schema.textFields).map(([name, f]) => ({ name, boost: f.boost ?? 1 }));
    let base = 0;
    let live = 0;
    for (const s of segments) {
      this.bases.push(base);
      base += s.maxDoc;
      live += s.numDocs;
    }
    this.numDocs = live;
    this.stats = new GlobalStats(segments);
    this.cache = options.filterCache ?? new FilterCache();
    this.analyzer = options.analyzer ?? { analyze: defaultAnalyze, analyzeQuery: defaultAnalyzeQuery };
  }

  /** Parse free text with this searcher's analyzer (QueryError past `limits`: query/parser.ts ParseLimits). */
  parse(query: string, language: Language = 'de', limits?: Partial<ParseLimits>): ParsedQuery {
    return parseQuery(query, language, this.analyzer.analyzeQuery, limits);
  }

  search(req: SearchRequest): SearchResponse {
    if (req === null || typeof req !== 'object')
      throw new QueryError('invalid_request', 'search request must be an object');
    if (
      typeof req.query !== 'string' &&
      (req.query === null || typeof req.query !== 'object' || !Array.isArray(req.query.clauses))
    ) {
      throw new QueryError('invalid_request', 'query must be a string or a parsed query');
    }
    const limit = req.limit;
    const offset = req.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
      throw new QueryError('invalid_request', `limit must be an integer within 0..${MAX_LIMIT}`);
    }
    if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
      throw new QueryError('invalid_request', `offset must be an integer within 0..${MAX_OFFSET}`);
    }
    const lang = req.language ?? 'de';
    if (lang !== 'de' && lang !== 'en')
      throw new QueryError('invalid_request', `unsupported language "${String(lang)}"`);
    const parsed = typeof req.query === 'string' ? this.parse(req.query, lang) : req.query;
    if (req.filter !== undefined) this.validate(req.filter);
    const want = offset + limit;
    // One meter for every run of this search (the collapsed search may run again with a larger k).
    const budget = req.budget;
    const meter =
      budget && (budget.maxWork !== undefined || budget.maxMs !== undefined) ? new BudgetMeter(budget) : null;
    const maxPlannedWork = budget?.maxPlannedWork;
    if (!req.collapseDuplicates) {
      const { top, st } = this.topDocs(parsed, req.filter, want, -1, this.fields, 0, meter, maxPlannedWork);
      const hits = top
        .sorted()
        .slice(offset)
        .map((h) => this.hit(h.doc, h.score));
      return withCut({ total: st.count, totalIsExact: st.exact, hits }, meter);
    }
    let fetch = Math.min(MAX_LIMIT + MAX_OFFSET, want * 3 + 10);
    for (;;) {
      const { top, st } = this.topDocs(parsed, req.filter, fetch, -1, this.fields, 0, meter, maxPlannedWork);
      const groups = this.collapse(top.sorted());
      if (
        groups.length >= want ||
        top.size < fetch ||
        fetch >= MAX_LIMIT + MAX_OFFSET ||
        (meter !== null && meter.cut !== null)
      ) {
        const hits = groups.slice(offset, want).map((g) => {
          const hit = this.hit(g.doc, g.score);
          if (g.duplicates) hit.duplicates = g.duplicates.map((d) => this.hit(d.doc, d.score));
          return hit;
        });
        return withCut({ total: st.count, totalIsExact: st.exact, hits }, meter);
      }
      fetch = Math.min(MAX_LIMIT + MAX_OFFSET, fetch * 4);
    }
  }

  /** Committed live doc by key. */
  get(key: string): StoredDoc | null {
    const loc = this.locate(key);
    if (!loc) return null;
    const r = this.segments[loc.segment];
    const keywords: Record<string, string[]> = {};
    for (const f of this.options.schema.keywordFields) {
      const v = r.keywords(f, loc.doc);
      if (v.length > 0) keywords[f] = [...v];
    }
    const numbers: Record<string, number> = {};
    for (const f of this.options.schema.numericFields) {
      const v = r.numeric(f, loc.doc);
      if (v !== undefined) numbers[f] = v;
    }
    return { key, stored: r.stored(loc.doc), keywords, numbers };
  }

  /** Distinct values of keyword column `field` carried by at least one live doc, sorted. */
  keywordValues(field: string): string[] {
    const out = new Set<string>();
    for (const r of this.segments) {
      if (r.numDocs === 0) continue;
      if (r.keywordValues) {
        for (const v of r.keywordValues(field)) {
          if (out.has(v)) continue;
          const it = r.keywordDocs(field, v);
          if (!it) continue;
          for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
            if (!r.isDeleted(d)) {
              out.add(v);
              break;
            }
          }
        }
      } else {
        for (let d = 0; d < r.maxDoc; d++) if (!r.isDeleted(d)) for (const v of r.keywords(field, d)) out.add(v);
      }
    }
    return [...out].sort();
  }

  /**
   * Live docs carrying any of `values` in keyword column `field` and accepted by
   * `filter`, in index order (segment order, then doc id), at most `limit`: what
   * a blank-query search with that keyword filter returns, read from the
   * column's doc lists instead of enumerating every doc.
   */
  withKeyword(field: string, values: readonly string[], opts: { filter?: Filter; limit: number }): Hit[] {
    const keywordFilter: Filter = { keyword: field, anyOf: [...values] };
    validateFilter(opts.filter ? { and: [keywordFilter, opts.filter] } : keywordFilter, this.options.schema);
    const limit = Math.max(0, Math.min(MAX_LIMIT, Math.floor(opts.limit)));
    const out: Hit[] = [];
    if (limit === 0) return out;
    const fkey = opts.filter ? filterKey(opts.filter) : '';
    for (let i = 0; i < this.segments.length && out.length < limit; i++) {
      const r = this.segments[i];
      if (r.numDocs === 0) continue;
      const docs: number[] = [];
      for (const v of new Set(values)) {
        const it = r.keywordDocs(field, v);
        if (it) for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) docs.push(d);
      }
      if (docs.length === 0) continue;
      docs.sort((a, b) => a - b);
      const accept = opts.filter ? compileFilter(opts.filter, fkey, r, this.cache, docs.length).matches : null;
      let prev = -1;
      for (const d of docs) {
        if (d === prev) continue;
        prev = d;
        if (r.isDeleted(d) || (accept && !accept(d))) continue;
        out.push(this.hit(this.bases[i] + d, 0));
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /** Best passages of the hit's text fields for `query` (see highlight/passages.ts). */
  /**
   * Keys of every live doc carrying `value` in keyword column `field`, segment by segment in
   * index order, without a limit: read from the column's doc lists and the keys section, no
   * stored field decompressed. A generator, so a caller enumerating a large set holds one key at a
   * time; the snapshot stays fixed while it runs (release the searcher afterwards).
   */
  *keysWithKeyword(field: string, value: string): Generator<string> {
    validateFilter({ keyword: field, anyOf: [value] }, this.options.schema);
    for (const r of this.segments) {
      if (r.numDocs === 0) continue;
      const it = r.keywordDocs(field, value);
      if (!it) continue;
      for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) if (!r.isDeleted(d)) yield r.key(d);
    }
  }

  highlight(
    hit: Hit,
    query: ParsedQuery | string,
    opts: Partial<HighlightOptions> & { fields?: string[]; language?: Language } = {},
  ): Passage[] {
    const loc = this.resolve(hit);
    if (!loc) return [];
    const parsed = typeof query === 'string' ? this.parse(query, opts.language ?? 'de') : query;
    const r = this.segments[loc.segment];
    const texts = r.text(loc.doc);
    const lang = r.language(loc.doc);
    const maxPassages = opts.maxPassages ?? 3;
    const all: Passage[] = [];
    for (const field of opts.fields ?? this.fields.map((f) => f.name)) {
      const text = texts[field];
      if (typeof text !== 'string' || text.length === 0) continue;
      const weights = this.termWeights(parsed, field);
      const head = text.slice(0, graphemeFloor(text, opts.maxAnalyzedChars ?? 50000));
      all.push(...highlightText(field, head, this.analyzeShared(head, lang), weights, { ...opts, maxPassages }));
    }
    if (all.length <= maxPassages) return all;
    const keep = new Set([...all].sort((a, b) => b.score - a.score).slice(0, maxPassages));
    return all.filter((p) => keep.has(p));
  }

  /** First meaningful sentences of the hit's `field` (default body, else the first text field with text). */
  summary(hit: Hit, opts: Partial<SummaryOptions> & { field?: string } = {}): string {
    const loc = this.resolve(hit);
    if (!loc) return '';
    const texts = this.segments[loc.segment].text(loc.doc);
    const order = opts.field ? [opts.field] : ['body', ...this.fields.map((f) => f.name)];
    for (const f of order) {
      const t = texts[f];
      if (typeof t === 'string' && t.trim()) return summarize(t, opts);
    }
    return '';
  }

  /**
   * Docs most similar to `key` by its top tf-idf terms; the doc itself excluded.
   * `fields`: the text fields whose terms are considered and on which the
   * generated query is scored (default: all). The selected terms are cached per
   * source doc version across snapshots, and the unfiltered best matches per
   * snapshot once a second filter asks (similarity/mlt-cache.ts); either way the
   * result is exactly the filtered query's for the selected terms. The source is a key or a hit
   * (found by its ref when it came from this snapshot, else by its key).
   */
  moreLikeThis(
    source: string | Hit,
    opts: { filter?: Filter; limit: number; fields?: readonly string[] } & Partial<MoreLikeThisOptions>,
  ): Hit[] {
    if (opts.filter !== undefined) this.validate(opts.filter);
    const limit = Math.max(0, Math.min(MAX_LIMIT, Math.floor(opts.limit)));
    const loc = this.find(source);
    if (!loc || limit === 0) return [];
    const from = opts.fields ? this.fieldSubset(opts.fields) : this.fields;
    const okey = mltOptionsKey(
      from.map((f) => f.name),
      opts,
    );
    const selected = this.mltTerms(loc, from, opts, okey);
    if (selected.terms.length === 0) return [];
    // the OR of the selected (distinct) terms, as termsQuery(selected.terms) would parse
    const query = { terms: selected.terms };
    const exclude = this.bases[loc.segment] + loc.doc;
    const fkey = opts.filter ? this.internKey(filterKey(opts.filter)) : '';
    if (limit <= MLT_CANDIDATES) {
      // A source doc asked for under a second filter (another viewer) gets its unfiltered best
      // matches computed once per snapshot; every filter then takes its hits from that list.
      const ckey = `${exclude}|${okey}`;
      let c = this.mltCandidates.get(ckey);
      if (c !== undefined && typeof c === 'string' && c !== fkey) {
        const hits = this.topDocs(query, undefined, MLT_CANDIDATES, exclude, from, MLT_EXHAUSTIVE_COST).top.sorted();
        this.mltCandidates.set(ckey, (c = candidateList(hits, MLT_CANDIDATES)));
      }
      if (c !== undefined && typeof c !== 'string') {
        const kept = this.accepted(c, opts.filter, fkey, limit);
        if (kept.length >= limit || c.complete) return kept;
      } else if (c === undefined) this.mltCandidates.set(ckey, fkey);
    }
    const { top } = this.topDocs(query, opts.filter, limit, exclude, from, MLT_EXHAUSTIVE_COST);
    return top.sorted().map((h) => this.hit(h.doc, h.score));
  }

  /**
   * validateFilter once per filter object (a filter must not change once handed to the engine,
   * as filterKey memoises too): the viewer's filter is passed to every related-list lookup.
   */
  private validate(filter: Filter): void {
    if (this.validFilters.has(filter)) return;
    validateFilter(filter, this.options.schema);
    if (filter !== null && typeof filter === 'object') this.validFilters.add(filter);
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
    const accept = new Map<number, (doc: number) => boolean>();
    const out: Hit[] = [];
    for (let i = 0; i < c.docs.length && out.length < limit; i++) {
      if (filter) {
        const { segment, doc } = this.split(c.docs[i]);
        let a = accept.get(segment);
        if (a === undefined)
          accept.set(
            segment,
            (a = compileFilter(filter, fkey, this.segments[segment], this.cache, c.docs.length).matches),
          );
        if (!a(doc)) continue;
      }
      out.push(this.hit(c.docs[i], c.scores[i]));
    }
    return out;
  }

  /** The source doc's more-like-this terms: cached by (segment id, doc) across snapshots (see similarity/mlt-cache.ts). */
  private mltTerms(
    loc: { segment: number; doc: number },
    from: { name: string }[],
    opts: Partial<MoreLikeThisOptions>,
    okey: string,
  ): SelectedTerms {
    const r = this.segments[loc.segment];
    const tkey = `${loc.doc}\u0000${okey}`;
    const terms = termsCacheOf(this.cache);
    terms.retain(this.generation, () => this.liveSegmentIds());
    const known = terms.get(r.id, tkey, this.generation, this.numDocs);
    if (known) return known;
    const texts = r.text(loc.doc);
    const lang = r.language(loc.doc);
    const names = new Set(from.map((f) => f.name));
    const fields = this.fieldsBySize().filter((name) => names.has(name));
    // The max df over `fields` per term, kept for this snapshot: exact (>= 0) or, when it
    // exceeded the cap it was asked under, -(the value found), which answers any lower cap.
    const fkey = fields.join('\u0000');
    let memo = this.mltDf.get(fkey);
    if (memo === undefined) this.mltDf.set(fkey, (memo = new Map()));
    if (memo.size >= MLT_DF_ENTRIES) memo.clear();
    const dfs = memo;
    const segs = (this.bySegmentSize ??= [...this.segments].sort((a, b) => b.maxDoc - a.maxDoc));
    const stats = {
      numDocs: this.numDocs,
      docFreq: (term: string, atMost: number) => {
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
      },
    };
    const entry: SelectedTerms = {
      terms: selectTerms(
        from.map((f) => texts[f.name] ?? ''),
        lang,
        (text, l) => this.analyzeShared(text, l),
        stats,
        opts,
      ),
      language: lang,
      numDocs: this.numDocs,
      generation: this.generation,
    };
    terms.set(r.id, tkey, entry);
    return entry;
  }

  /**
   * The analyzer's tokens of `text`, shared by the last few callers asking for the same text
   * (a hit's more-like-this terms and then its highlights analyze the same fields). Read-only.
   */
  private analyzeShared(text: string, lang: Language): Token[] {
    const cache = this.analyzed;
    for (let i = 0; i < cache.length; i++) if (cache[i].lang === lang && cache[i].text === text) return cache[i].tokens;
    const tokens = this.analyzer.analyze(text, lang);
    if (text.length <= SHARED_ANALYSIS_CHARS) {
      cache.unshift({ text, lang, tokens });
      if (cache.length > SHARED_ANALYSES) cache.pop();
    }
    return tokens;
  }

  /** The ids of this snapshot's segments. */
  liveSegmentIds(): string[] {
    return this.segments.map((r) => r.id);
  }

  /** Whether the doc version `ref` (segment id, segment-local doc) is live in this snapshot. */
  isLive(ref: { segmentId: string; doc: number }): boolean {
    const ids = (this.segmentIds ??= new Map(this.segments.map((r, i) => [r.id, i])));
    const i = ids.get(ref.segmentId);
    if (i === undefined) return false;
    const r = this.segments[i];
    return Number.isInteger(ref.doc) && ref.doc >= 0 && ref.doc < r.maxDoc && !r.isDeleted(ref.doc);
  }

  /**
   * Stored fields `names` of the hit's doc in this snapshot (fields it lacks left out; {} when the
   * doc is gone): the values of `hit.stored`, read from the segment's display store when it holds
   * them (schema `displayFields`), so no stored block is decompressed, else from the stored payload.
   */
  storedFields(hit: Hit, names: readonly string[]): Record<string, unknown> {
    const loc = this.resolve(hit);
    if (!loc) return {};
    const r = this.segments[loc.segment];
    const fast = r.storedFields?.(loc.doc, names);
    if (fast) return fast;
    const stored = r.stored(loc.doc);
    const out: Record<string, unknown> = {};
    for (const n of names) if (Object.prototype.hasOwnProperty.call(stored, n)) setField(out, n, stored[n]);
    return out;
  }

  /** Values of keyword column `field` of the hit's doc in this snapshot ([] when it has none or is gone). */
  keywordsOf(hit: Hit, field: string): readonly string[] {
    const loc = this.resolve(hit);
    return loc ? this.segments[loc.segment].keywords(field, loc.doc) : [];
  }

  /**
   * Near-duplicates of `source` (a key, or a hit: see moreLikeThis) (SimHash distance <= 3),
   * closest first; score = 1 - distance / 64.
   */
  duplicatesOf(source: string | Hit, opts: { filter?: Filter; limit: number }): Hit[] {
    if (opts.filter !== undefined) this.validate(opts.filter);
    const loc = this.find(source);
    if (!loc) return [];
    const sig = this.segments[loc.segment].signature(loc.doc);
    const found: { g: number; distance: number }[] = [];
    const fkey = opts.filter ? filterKey(opts.filter) : '';
    this.segments.forEach((r, i) => {
      const near = nearDuplicatesIn(r, sig);
      if (near.length === 0) return;
      const accept = opts.filter ? compileFilter(opts.filter, fkey, r, this.cache, near.length).matches : null;
      for (const { doc, distance } of near) {
        if (r.isDeleted(doc) || (i === loc.segment && doc === loc.doc) || (accept && !accept(doc))) continue;
        found.push({ g: this.bases[i] + doc, distance });
      }
    });
    found.sort((a, b) => a.distance - b.distance || a.g - b.g);
    return found.slice(0, Math.max(0, opts.limit)).map((f) => this.hit(f.g, 1 - f.distance / 64));
  }

  /** Top `k` of a parsed query or of an OR of distinct index terms (`{ terms }`: see query/execute.ts). */
  private topDocs(
    q: ParsedQuery | { terms: readonly { term: string }[] },
    filter: Filter | undefined,
    k: number,
    excludeGlobal: number,
    fields = this.fields,
    exhaustiveMaxCost = 0,
    meter: BudgetMeter | null = null,
    maxPlannedWork?: number,
  ) {
    const ctx = {
      segments: this.segments,
      bases: this.bases,
      fields,
      bm25: this.bm25,
      stats: this.stats,
      filterCache: this.cache,
      fieldScoring: this.options.fieldScoring ?? 'combined',
    };
    const pruning = this.options.pruning ?? true;
    const totalHitsThreshold = this.options.totalHitsThreshold ?? 0;
    return 'clauses' in q
      ? executeQuery(ctx, {
          query: q,
          filter,
          k,
          excludeGlobal,
          pruning,
          totalHitsThreshold,
          exhaustiveMaxCost,
          meter,
          maxPlannedWork,
        })
      : executeQuery(ctx, { terms: q.terms, filter, k, excludeGlobal, pruning, totalHitsThreshold, exhaustiveMaxCost });
  }

  /**
   * The text fields named in `names` (schema order), the same array for the same names, so that
   * per-fields-list memos of the scorers (field-lengths.ts docLengthsOf) find it again.
   */
  private fieldSubset(names: readonly string[]): { name: string; boost: number }[] {
    const k = names.join('\u0000');
    let subset = this.subsets.get(k);
    if (subset === undefined) {
      subset = this.fields.filter((f) => names.includes(f.name));
      if (this.subsets.size >= 64) this.subsets.clear();
      this.subsets.set(k, subset);
    }
    return subset;
  }

  /** Text field names, most indexed tokens first (where a common term shows its df soonest). */
  private fieldsBySize(): string[] {
    return (this.bySize ??= this.fields
      .map((f) => ({ name: f.name, tokens: this.stats.field(f.name).avgdl * this.stats.field(f.name).docCount }))
      .sort((a, b) => b.tokens - a.tokens)
      .map((f) => f.name));
  }

  /**
   * Groups hits (best first) whose signatures are within 3 bits of a better group leader;
   * Hit objects are made by the caller, for the groups it returns only.
   */
  private collapse(sorted: { score: number; doc: number }[]): CollapsedGroup[] {
    const n = sorted.length;
    const his = new Int32Array(n);
    const los = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const { segment, doc } = this.split(sorted[i].doc);
      const words = (this.sigWords[segment] ??= signatureWords(this.segments[segment]) ?? false);
      if (words) {
        los[i] = words[2 * doc];
        his[i] = words[2 * doc + 1];
      } else [his[i], los[i]] = splitSignature(this.segments[segment].signature(doc));
    }
    const leaderOf = leaderGroups(
      n,
      (i) => his[i],
      (i) => los[i],
    );
    const leaders: CollapsedGroup[] = [];
    const groupOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const h = sorted[i];
      const l = leaderOf[i];
      if (l === i) {
        groupOf[i] = leaders.length;
        leaders.push({ doc: h.doc, score: h.score });
      } else (leaders[groupOf[l]].duplicates ??= []).push(h);
    }
    return leaders;
  }

  /** idf of each query term in `field` (compound parts and phrase terms included, excluded terms not). */
  private termWeights(q: ParsedQuery, field: string): Map<string, number> {
    // The hits of one search are highlighted with the same parsed query: keep its weights.
    let last = this.lastWeights;
    if (last === null || last.query !== q || last.text !== q.text || last.clauses !== q.clauses.length) {
      last = this.lastWeights = { query: q, text: q.text, clauses: q.clauses.length, byField: new Map() };
    }
    let weights = last.byField.get(field);
    if (weights === undefined) last.byField.set(field, (weights = this.computeTermWeights(q, field)));
    return weights;
  }

  private computeTermWeights(q: ParsedQuery, field: string): Map<string, number> {
    const fs = this.stats.field(field);
    const out = new Map<string, number>();
    const add = (t: string) => {
      const df = this.stats.docFreq(field, t);
      if (df > 0 && !out.has(t)) out.set(t, bm25Idf(df, fs.docCount));
    };
    for (const c of q.clauses) {
      if (c.occur === 'mustNot') continue;
      if (c.kind === 'word') [...c.word.terms, ...c.word.parts].forEach(add);
      else c.slots.forEach((s) => s.terms.forEach(add));
    }
    return out;
  }

  private split(g: number): { segment: number; doc: number } {
    let lo = 0;
    let hi = this.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bases[mid] <= g) lo = mid;
      else hi = mid - 1;
    }
    return { segment: lo, doc: g - this.bases[lo] };
  }

  /** A hit whose `stored` payload is read (decompressed) on first access. */
  private hit(g: number, score: number): Hit {
    const { segment, doc } = this.split(g);
    const r = this.segments[segment];
    const hit = { key: r.key(doc), score, ref: { segment, doc, segmentId: r.id } } as Hit;
    // one accessor pair for all hits (they share their shape), the state in a hidden property
    const lazy: LazyStored = { reader: r, doc, value: undefined };
    Object.defineProperty(hit, LAZY, { value: lazy });
    Object.defineProperty(hit, 'stored', STORED_ACCESSOR);
    return hit;
  }

  /** The live doc of a key, or of a hit (see resolve). */
  private find(source: string | Hit): { segment: number; doc: number } | null {
    return typeof source === 'string' ? this.locate(source) : this.resolve(source);
  }

  /** The hit's doc in this snapshot (by ref when it came from this snapshot, else by key). */
  private resolve(hit: Hit): { segment: number; doc: number } | null {
    const ref = hit.ref;
    const r = ref ? this.segments[ref.segment] : undefined;
    if (r && r.id === ref.segmentId && ref.doc < r.maxDoc && !r.isDeleted(ref.doc))
      return { segment: ref.segment, doc: ref.doc };
    return this.locate(hit.key);
  }

  private locate(key: string): { segment: number; doc: number } | null {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const r = this.segments[i] as SegmentReader & { findKey?(key: string): number };
      if (r.findKey) {
        const d = r.findKey(key);
        if (d >= 0) return { segment: i, doc: d };
        continue;
      }
      for (let d = 0; d < r.maxDoc; d++) if (!r.isDeleted(d) && r.key(d) === key) return { segment: i, doc: d };
    }
    return null;
  }
}
