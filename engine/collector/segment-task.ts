/**
 * One segment's top-k work as the collectors (top-k.ts, max-score.ts) see it:
 * its scoring clauses and constraints, the accepted docs, the shared counting
 * state, and small helpers they share.
 */
import type { BudgetMeter } from '../query/budget.ts';
import type { Scorer } from '../scorer/scorers.ts';
import type { TopDocs } from './top-docs.ts';

export interface CollectState {
  /** Matches seen (exact while `exact`). */
  count: number;
  exact: boolean;
  /** Exact counting up to this many matches before pruning starts. */
  threshold: number;
  /** The search's budget (query/budget.ts): collectors stop at a window boundary once it is exhausted. */
  budget?: BudgetMeter | null;
}

/** One segment's work: scoring clauses (canonical order), constraints, accepted docs. */
export interface SegmentTask {
  scoring: Scorer[];
  /** Every one must match (checked with advance). */
  required: Scorer[];
  /** None may match. */
  excluded: Scorer[];
  /** Live-doc and filter check. */
  accept: (doc: number) => boolean;
  /** When the filter is a bitset: the first doc >= from it accepts (lets rejected runs be skipped), else null. */
  nextCandidate: ((from: number) => number) | null;
  /** The filter's bitset (bit d of word d >>> 5) when it has one: essential clauses skip the docs it rejects. */
  bits?: Uint32Array | null;
  docBase: number;
  maxDoc: number;
}

/** Relative safety margin on summed bounds against float rounding. */
export const SAFE = 1 + 1e-9;

/** The score a doc must beat to make the top k (-Infinity while matches are still counted exactly). */
export function floor(top: TopDocs, st: CollectState): number {
  return st.count >= st.threshold ? top.minScore() : -Infinity;
}

/** True when an excluded clause matches `doc` (each is moved to it). */
export function isExcluded(excluded: Scorer[], doc: number): boolean {
  for (let i = 0; i < excluded.length; i++) {
    const e = excluded[i];
    if (e.doc < doc) e.advance(doc);
    if (e.doc === doc) return true;
  }
  return false;
}
