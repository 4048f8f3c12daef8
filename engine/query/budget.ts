/**
 * Query budgets: the work and time one search may spend (SearchRequest.budget).
 *
 * Work is counted in postings blocks decoded (postings/postings-reader.ts counts every
 * block this thread decodes), each weighted by the clauses of the query: a
 * block costs 1 + clauses / CLAUSES_PER_UNIT units, because every window of
 * MaxScore bounds and orders every clause, so the time per block decoded grows
 * with the clause count (measured: about the same time per unit from 16 to
 * 1,024 clauses). A search is refused before it runs when its plan would cost
 * more than `maxPlannedWork` even if nothing were pruned (plannedWork: every
 * block of its terms), and it stops at a window boundary once it has
 * spent more than `maxWork` units or run for more than `maxMs` milliseconds:
 * every doc before that boundary (and every doc scored ahead by seeding, collector/seed.ts)
 * was scored or pruned exactly, so the hits are the exact best of the docs
 * searched so far, with their exact scores. Later segments are not searched.
 */
import { postingsBlocksDecoded } from '../postings/postings-reader.ts';
import { BLOCK_SIZE } from '../postings/postings-writer.ts';
import type { GlobalStats, QueryPlan, Unit } from './plan.ts';

/** Limits of one search; each is off when absent. */
export interface SearchBudget {
  /** Work units (see workPerBlock) the search may spend before it stops at the next window boundary. */
  maxWork?: number;
  /** Milliseconds the search may run before it stops at the next window boundary. */
  maxMs?: number;
  /** A query whose plan costs more work units than this is refused before it runs (QueryError 'over_budget'). */
  maxPlannedWork?: number;
}

/** Why and when a budget stopped a search (SearchResponse.cut). */
export interface BudgetCut {
  limit: 'work' | 'time';
  /** Work units spent when it stopped (rounded up). */
  work: number;
  /** Milliseconds it had run. */
  ms: number;
}

/** Clauses that add one unit to the cost of a block. */
export const CLAUSES_PER_UNIT = 64;

/** Work units of one postings block decoded by a search of `clauses` clauses. */
export function workPerBlock(clauses: number): number {
  return 1 + clauses / CLAUSES_PER_UNIT;
}

/**
 * MaxScore asks the meter at every this many window boundaries (at 1M documents a search crosses
 * hundreds of windows; a check costs about 20 ns, a countdown 1).
 */
export const WINDOWS_PER_CHECK = 16;

/** The running budget of one search: `exhausted()` at each window boundary. */
export class BudgetMeter {
  private readonly started = performance.now();
  private readonly maxWork: number;
  private readonly deadline: number;
  private counted = postingsBlocksDecoded();
  private perBlock = 1;
  /** Work units spent so far (up to the last `exhausted` or `clauses` call). */
  work = 0;
  /** Set once a limit has been passed; the search then stops. */
  cut: BudgetCut | null = null;

  constructor(budget: SearchBudget) {
    this.maxWork = budget.maxWork ?? Infinity;
    this.deadline = this.started + (budget.maxMs ?? Infinity);
  }

  /** The clauses of the segment searched from now on (they weigh its blocks). */
  clauses(n: number): void {
    this.settle();
    this.perBlock = workPerBlock(n);
  }

  /** True when the search must stop at this window boundary (and from now on). */
  exhausted(): boolean {
    if (this.cut !== null) return true;
    this.settle();
    if (this.work > this.maxWork) return this.stop('work');
    return performance.now() > this.deadline ? this.stop('time') : false;
  }

  private settle(): void {
    const blocks = postingsBlocksDecoded();
    this.work += (blocks - this.counted) * this.perBlock;
    this.counted = blocks;
  }

  private stop(limit: BudgetCut['limit']): true {
    const ms = Math.round((performance.now() - this.started) * 10) / 10;
    this.cut = { limit, work: Math.ceil(this.work), ms };
    return true;
  }
}

/** Postings blocks of a term in `field` over every segment. */
function termBlocks(stats: GlobalStats, field: string, term: string, segments: number): number {
  let blocks = 0;
  for (let i = 0; i < segments; i++) blocks += Math.ceil(stats.segmentDocFreq(field, term, i) / BLOCK_SIZE);
  return blocks;
}

/** Postings blocks of a unit's terms over every field and segment it reads. */
function unitBlocks(u: Unit, stats: GlobalStats, segments: number): number {
  let blocks = 0;
  if (u.kind === 'combined') {
    for (const a of u.alts) for (const f of a.fields) blocks += termBlocks(stats, f.name, a.term, segments);
  } else if (u.kind === 'terms') {
    for (const a of u.alts) blocks += termBlocks(stats, u.field, a.term, segments);
  } else {
    for (const slot of u.slots) for (const t of slot.terms) blocks += termBlocks(stats, u.field, t, segments);
  }
  return blocks;
}

/** Work units of `plan` if no block were skipped: every block of its terms, weighted by its clauses. */
export function plannedWork(plan: QueryPlan, stats: GlobalStats, segments: number): number {
  let blocks = 0;
  let clauses = plan.scoring.length;
  for (const u of plan.scoring) blocks += unitBlocks(u, stats, segments);
  for (const item of [...plan.required, ...plan.excluded]) {
    clauses++;
    for (const u of item) blocks += unitBlocks(u, stats, segments);
  }
  return Math.round(blocks * workPerBlock(clauses));
}
