/**
 * Types of the query side shared by the parser, the top-k collectors, the
 * searcher, highlights and similarity lookups. engine/index.ts re-exports them.
 */
import type { Language } from '../analysis/types.ts';
import type { BudgetCut, SearchBudget } from './budget.ts';

export type { BudgetCut, SearchBudget } from './budget.ts';

/** Filter tree evaluated per segment (see filter.ts). */
export type Filter =
  | { and: Filter[] }
  | { or: Filter[] }
  | { not: Filter }
  /** Doc matches when it carries any of the values in keyword column `keyword` (also access tokens). */
  | { keyword: string; anyOf: string[] }
  /** Doc matches when numeric column `numeric` has a value within [gte, lte] (each bound optional). */
  | { numeric: string; gte?: number; lte?: number };

export type Occur = 'should' | 'must' | 'mustNot';

/** One surface word after analysis: alternatives (a synonym group) and optional compound parts. */
export interface QueryTermGroup {
  text: string;
  /** Index terms that match the word, best first; scored as the best alternative per field. */
  terms: string[];
  /** Compound parts, added as weaker optional clauses. */
  parts: string[];
}

export interface PhraseSlot {
  /** Alternatives for this slot (any matches). */
  terms: string[];
  /** Position relative to the first slot (stopwords leave gaps). */
  offset: number;
}

/** `boost` (default 1) multiplies the clause's BM25 weight. */
export type QueryClause =
  | { kind: 'word'; occur: Occur; word: QueryTermGroup; boost?: number }
  | { kind: 'phrase'; occur: Occur; text: string; slots: PhraseSlot[]; boost?: number };

/** Output of parseQuery: a flat boolean query over words and phrases. */
export interface ParsedQuery {
  /** The raw query text. */
  text: string;
  language: Language;
  clauses: QueryClause[];
}

export interface SearchRequest {
  /** Free text: OR of terms ranked by BM25, "quoted phrases", +required, -excluded. */
  query: string | ParsedQuery;
  /** Query analysis hint, default 'de'. */
  language?: Language;
  filter?: Filter;
  /** Hits to return, 0..10000. */
  limit: number;
  /** Hits to skip (pagination), default 0. */
  offset?: number;
  /** Group near-duplicates (SimHash distance <= 3) into the best-ranked hit. */
  collapseDuplicates?: boolean;
  /** Work and time limits of this search (query/budget.ts); none by default. */
  budget?: SearchBudget;
}

/** Where a hit lives inside the snapshot of the searcher that produced it. */
export interface HitRef {
  /** Segment ordinal within the searcher. */
  segment: number;
  /** Segment-local doc id. */
  doc: number;
  /** Segment id, to detect a hit passed to another snapshot. */
  segmentId: string;
}

export interface Hit {
  key: string;
  score: number;
  stored: Record<string, unknown>;
  /** Near-duplicates grouped into this hit (collapseDuplicates only). */
  duplicates?: Hit[];
  ref: HitRef;
}

/**
 * `total` counts matching docs. When `totalIsExact` is false it is a lower
 * bound (at least the number of hits returned): once the searcher's
 * `totalHitsThreshold` matches (default 0) are counted, dynamic pruning may skip
 * docs without counting them. With collapseDuplicates, `total` counts docs
 * before grouping.
 */
export interface SearchResponse {
  total: number;
  totalIsExact: boolean;
  hits: Hit[];
  /**
   * Present when the budget stopped the search before it had looked at every doc: `hits`
   * are then the exact best of the docs it had searched (`totalIsExact` is false).
   */
  cut?: BudgetCut;
}

export interface StoredDoc {
  key: string;
  stored: Record<string, unknown>;
  keywords: Record<string, string[]>;
  numbers: Record<string, number>;
}

/** A highlighted passage: plain text, match ranges [start, end) relative to `text`. */
export interface Passage {
  field: string;
  text: string;
  ranges: [number, number][];
  score: number;
}
