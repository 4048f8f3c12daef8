/**
 * What every concern of a Searcher shares (search/searcher.ts is the facade):
 * the snapshot's segments and their doc-id bases, the summed statistics, the
 * analyzer, the filter cache, and the steps they all take: parse a query,
 * validate a filter once, run a top k (execute.ts), analyze a hit's text once
 * for several callers, and turn a global doc id into a Hit or a Hit or key
 * back into a live doc of this snapshot.
 *
 * Statistics (docCount, df, avgdl per field) are summed across the snapshot's
 * segments, so scores do not depend on how docs are split into segments.
 */
import { analyze as defaultAnalyze, analyzeQuery as defaultAnalyzeQuery } from '../analysis/index.ts';
import type { Language, QueryWord, Token } from '../analysis/types.ts';
import { bm25Params } from '../similarity/bm25.ts';
import type { Bm25Params } from '../similarity/bm25.ts';
import type { SegmentReader } from '../segment/types.ts';
import { FilterCache, validateFilter } from '../query/filter.ts';
import { parseQuery } from '../query/parser.ts';
import type { ParseLimits } from '../query/parser.ts';
import type { BudgetMeter } from '../query/budget.ts';
import { GlobalStats } from '../query/plan.ts';
import type { FieldScoring } from '../query/plan.ts';
import type { Filter, Hit, ParsedQuery } from '../query/types.ts';
import { executeQuery } from './execute.ts';
import { makeHit } from './hits.ts';

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

/** A text field of the schema with its boost. */
export interface TextField {
  name: string;
  boost: number;
}

/** A live doc of the snapshot: index into its segments, segment-local doc id. */
export interface DocLocation {
  segment: number;
  doc: number;
}

export const MAX_LIMIT = 10000;
export const MAX_OFFSET = 100000;

/** Texts whose tokens are kept for reuse (a hit's fields: its more-like-this terms, then its highlights). */
const SHARED_ANALYSES = 4;
/** Longest text whose tokens are kept. */
const SHARED_ANALYSIS_CHARS = 50_000;

export class SearcherCore {
  readonly generation: number;
  readonly numDocs: number;
  readonly bases: number[] = [];
  readonly fields: TextField[];
  readonly bm25: Bm25Params;
  readonly stats: GlobalStats;
  readonly cache: FilterCache;
  readonly analyzer: NonNullable<SearcherOptions['analyzer']>;
  private bySize: string[] | undefined;
  /** Filter objects validated already (see validate). */
  private readonly validFilters = new WeakSet<object>();
  /** The last few texts analyzed for more-like-this or highlights, with their tokens (see analyzeShared). */
  private analyzed: { text: string; lang: Language; tokens: Token[] }[] = [];
  /** Text-field subsets by their names (see fieldSubset). */
  private readonly subsets = new Map<string, TextField[]>();

  constructor(
    readonly segments: SegmentReader[],
    readonly options: SearcherOptions,
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

  /**
   * validateFilter once per filter object (a filter must not change once handed to the engine,
   * as filterKey memoises too): the viewer's filter is passed to every related-list lookup.
   */
  validate(filter: Filter): void {
    if (this.validFilters.has(filter)) return;
    validateFilter(filter, this.options.schema);
    if (filter !== null && typeof filter === 'object') this.validFilters.add(filter);
  }

  /** Top `k` of a parsed query or of an OR of distinct index terms (`{ terms }`: see execute.ts). */
  topDocs(
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
   * The analyzer's tokens of `text`, shared by the last few callers asking for the same text
   * (a hit's more-like-this terms and then its highlights analyze the same fields). Read-only.
   */
  analyzeShared(text: string, lang: Language): Token[] {
    const cache = this.analyzed;
    for (let i = 0; i < cache.length; i++) if (cache[i].lang === lang && cache[i].text === text) return cache[i].tokens;
    const tokens = this.analyzer.analyze(text, lang);
    if (text.length <= SHARED_ANALYSIS_CHARS) {
      cache.unshift({ text, lang, tokens });
      if (cache.length > SHARED_ANALYSES) cache.pop();
    }
    return tokens;
  }

  /**
   * The text fields named in `names` (schema order), the same array for the same names, so that
   * per-fields-list memos of the scorers (scorer/field-lengths.ts docLengthsOf) find it again.
   */
  fieldSubset(names: readonly string[]): TextField[] {
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
  fieldsBySize(): string[] {
    return (this.bySize ??= this.fields
      .map((f) => ({ name: f.name, tokens: this.stats.field(f.name).avgdl * this.stats.field(f.name).docCount }))
      .sort((a, b) => b.tokens - a.tokens)
      .map((f) => f.name));
  }

  /** The segment and segment-local doc of global doc `g`. */
  split(g: number): DocLocation {
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
  hit(g: number, score: number): Hit {
    const { segment, doc } = this.split(g);
    return makeHit(this.segments[segment], segment, doc, score);
  }

  /** The live doc of a key, or of a hit (see resolve). */
  find(source: string | Hit): DocLocation | null {
    return typeof source === 'string' ? this.locate(source) : this.resolve(source);
  }

  /** The hit's doc in this snapshot (by ref when it came from this snapshot, else by key). */
  resolve(hit: Hit): DocLocation | null {
    const ref = hit.ref;
    const r = ref ? this.segments[ref.segment] : undefined;
    if (r && r.id === ref.segmentId && ref.doc < r.maxDoc && !r.isDeleted(ref.doc))
      return { segment: ref.segment, doc: ref.doc };
    return this.locate(hit.key);
  }

  /** The live doc of `key`: the newest segment holding it wins. */
  locate(key: string): DocLocation | null {
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
