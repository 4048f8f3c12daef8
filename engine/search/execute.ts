/**
 * Query execution over a snapshot: plan the query with global statistics,
 * then per segment open the scorers, compile the filter, and collect the top k
 * (block-max MaxScore after seeding the top k from the rarest term (collector/seed.ts), or
 * exhaustive scoring when pruning is off). A budget (query/budget.ts) refuses a plan
 * whose planned work is over it before any segment is searched, and stops the
 * search at a window boundary once its work or time is spent: then no later
 * segment is searched either.
 */
import type { SegmentReader } from '../segment/types.ts';
import type { Bm25Params } from '../similarity/bm25.ts';
import { compileFilter, filterKey, nextSetBit } from '../query/filter.ts';
import type { FilterCache } from '../query/filter.ts';
import { plannedWork, type BudgetMeter } from '../query/budget.ts';
import { buildPlan, buildTermsPlan, openItem, openUnit } from '../query/plan.ts';
import type { FieldScoring, GlobalStats } from '../query/plan.ts';
import type { Scorer } from '../scorer/scorers.ts';
import { TopDocs } from '../collector/top-docs.ts';
import { seedTop } from '../collector/seed.ts';
import { collectAll, scoreSegment } from '../collector/top-k.ts';
import type { CollectState, SegmentTask } from '../collector/top-k.ts';
import type { Filter, ParsedQuery } from '../query/types.ts';
import { QueryError } from '../query/parser.ts';

export interface SnapshotContext {
  segments: readonly SegmentReader[];
  /** Global doc id of each segment's doc 0. */
  bases: readonly number[];
  fields: readonly { name: string; boost: number }[];
  bm25: Bm25Params;
  stats: GlobalStats;
  filterCache: FilterCache;
  fieldScoring: FieldScoring;
}

/**
 * The query: a parsed query, or `terms`, an OR of distinct index terms with boost 1 (a
 * more-like-this query): planned directly (query/plan.ts buildTermsPlan), as buildPlan would plan
 * termsQuery(terms) (mlt/more-like-this.ts), without building its clauses.
 */
export type ExecuteRequest = ExecuteOptions &
  ({ query: ParsedQuery; terms?: undefined } | { terms: readonly { term: string }[]; query?: undefined });

export interface ExecuteOptions {
  filter?: Filter;
  k: number;
  /** Global doc id never to return (more-like-this source), or -1. */
  excludeGlobal: number;
  pruning: boolean;
  totalHitsThreshold: number;
  /**
   * Segments where the scoring clauses hold at most this many postings in all
   * are scored exhaustively, term-at-a-time where it applies (same hits; cheaper than
   * MaxScore's windows for a few short postings lists, such as more-like-this queries
   * of rare terms; collector/sparse-exhaustive.ts). Default 0.
   */
  exhaustiveMaxCost?: number;
  /** The search's running budget (shared by the runs of one search), or none. */
  meter?: BudgetMeter | null;
  /** Refuse the query (QueryError 'over_budget') when its plan costs more work units than this (query/budget.ts). */
  maxPlannedWork?: number;
}

export function executeQuery(ctx: SnapshotContext, req: ExecuteRequest): { top: TopDocs; st: CollectState } {
  const top = new TopDocs(req.k);
  const st: CollectState = { count: 0, exact: true, threshold: req.totalHitsThreshold, budget: req.meter ?? null };
  const { stats } = ctx;
  const { filter } = req;
  const pctx = { segments: ctx.segments, fields: ctx.fields, bm25: ctx.bm25, fieldScoring: ctx.fieldScoring };
  const plan = req.query === undefined ? buildTermsPlan(req.terms, pctx, stats) : buildPlan(req.query, pctx, stats);
  if (plan.impossible) return { top, st };
  if (req.maxPlannedWork !== undefined) {
    const work = plannedWork(plan, stats, ctx.segments.length);
    if (work > req.maxPlannedWork) {
      throw new QueryError(
        'over_budget',
        `query would cost up to ${work} work units (postings blocks weighted by its clauses), the limit is ${req.maxPlannedWork}`,
      );
    }
  }
  const fkey = filter ? filterKey(filter) : '';
  ctx.segments.forEach((reader, i) => {
    if (reader.numDocs === 0) return;
    if (st.budget?.exhausted()) {
      st.exact = false; // a segment boundary is a window boundary too
      return;
    }
    const scoring: Scorer[] = [];
    for (const u of plan.scoring) {
      const s = openUnit(u, reader, stats, i);
      if (s) scoring.push(s);
    }
    const required: Scorer[] = [];
    for (const units of plan.required) {
      const s = openItem(units, reader, stats, i);
      if (!s) return;
      required.push(s);
    }
    const excluded: Scorer[] = [];
    for (const units of plan.excluded) {
      const s = openItem(units, reader, stats, i);
      if (s) excluded.push(s);
    }
    if (!plan.empty && scoring.length === 0 && required.length === 0) return;
    st.budget?.clauses(scoring.length + required.length + excluded.length);
    let cost = reader.maxDoc;
    if (!plan.empty) {
      cost = required.length > 0 ? Math.min(...required.map((s) => s.cost)) : scoring.reduce((a, s) => a + s.cost, 0);
    }
    const compiled = filter ? compileFilter(filter, fkey, reader, ctx.filterCache, cost) : null;
    const f = compiled && !compiled.all ? compiled.matches : undefined;
    const self = req.excludeGlobal - ctx.bases[i];
    const accept = f
      ? (d: number) => !reader.isDeleted(d) && f(d) && d !== self
      : (d: number) => !reader.isDeleted(d) && d !== self;
    const bits = compiled?.bits ?? null;
    const maxDoc = reader.maxDoc;
    const nextCandidate = bits ? (from: number) => nextSetBit(bits, from, maxDoc) : null;
    const task: SegmentTask = {
      scoring,
      required,
      excluded,
      accept,
      nextCandidate,
      bits,
      docBase: ctx.bases[i],
      maxDoc,
    };
    if (plan.empty) collectAll(task, top, st);
    else if (cost <= (req.exhaustiveMaxCost ?? 0)) scoreSegment(task, top, st, 'sparse');
    else if (!req.pruning) scoreSegment(task, top, st, 'exhaustive');
    else {
      top.skip = seedTop(plan.scoring, reader, stats, i, task, top, st);
      scoreSegment(task, top, st, 'pruned');
      top.skip = null;
    }
  });
  return { top, st };
}
