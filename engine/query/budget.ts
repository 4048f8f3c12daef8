/**
 * Query budgets: the work and time one search may spend (SearchRequest.budget).
 *
 * Work is counted in postings blocks decoded (postings-reader.ts counts every
 * block this thread decodes; a search reads the difference). A search is
 * refused before it runs when its plan reads more blocks than `maxPlannedBlocks`
 * even if nothing were pruned (plannedBlocks below), and it stops at the next
 * window boundary once it has decoded more than `maxBlocks` blocks or run for
 * more than `maxMs` milliseconds: every doc before that boundary was scored
 * or pruned exactly, so the hits are the exact top of the docs searched so far.
 */
import { postingsBlocksDecoded } from '../segment/postings-reader.ts';
import { BLOCK_SIZE } from '../segment/postings-writer.ts';
import type { GlobalStats, QueryPlan, Unit } from './plan.ts';

/** Limits of one search; each is off when absent. */
export interface SearchBudget {
  /** Postings blocks the search may decode before it stops at the next window boundary. */
  maxBlocks?: number;
  /** Milliseconds the search may run before it stops at the next window boundary. */
  maxMs?: number;
  /** A plan whose terms hold more postings blocks than this is refused before it runs (QueryError 'over_budget'). */
  maxPlannedBlocks?: number;
}

/** Why and where a budget stopped a search (SearchResponse.cut). */
export interface BudgetCut {
  limit: 'blocks' | 'time';
  /** Postings blocks decoded when it stopped. */
  blocks: number;
  /** Milliseconds it had run. */
  ms: number;
}

/** The clock is read every this many window boundaries (reading it costs more than the block count). */
const CLOCK_EVERY = 8;

/** The running budget of one search: `exhausted()` at each window boundary. */
export class BudgetMeter {
  private readonly startBlocks = postingsBlocksDecoded();
  private readonly started = performance.now();
  private readonly maxBlocks: number;
  private readonly deadline: number;
  private untilClock = CLOCK_EVERY;
  /** Set once a limit has been passed; the search then stops. */
  cut: BudgetCut | null = null;

  constructor(budget: SearchBudget) {
    this.maxBlocks = budget.maxBlocks ?? Infinity;
    this.deadline = this.started + (budget.maxMs ?? Infinity);
  }

  /** True when the search must stop at this window boundary (and from now on). */
  exhausted(): boolean {
    if (this.cut !== null) return true;
    const blocks = postingsBlocksDecoded() - this.startBlocks;
    if (blocks > this.maxBlocks) return this.stop('blocks', blocks);
    if (--this.untilClock > 0) return false;
    this.untilClock = CLOCK_EVERY;
    return performance.now() > this.deadline ? this.stop('time', blocks) : false;
  }

  private stop(limit: BudgetCut['limit'], blocks: number): true {
    this.cut = { limit, blocks, ms: Math.round((performance.now() - this.started) * 10) / 10 };
    return true;
  }
}

/** Postings blocks of a term (every field, every segment) as a plan reads them without pruning. */
function termBlocks(stats: GlobalStats, field: string, term: string, segments: number): number {
  let blocks = 0;
  for (let i = 0; i < segments; i++) blocks += Math.ceil(stats.segmentDocFreq(field, term, i) / BLOCK_SIZE);
  return blocks;
}

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

/** Postings blocks of every term of `plan`: what the search decodes at most (an exhaustive run). */
export function plannedBlocks(plan: QueryPlan, stats: GlobalStats, segments: number): number {
  let blocks = 0;
  for (const u of plan.scoring) blocks += unitBlocks(u, stats, segments);
  for (const item of plan.required) for (const u of item) blocks += unitBlocks(u, stats, segments);
  for (const item of plan.excluded) for (const u of item) blocks += unitBlocks(u, stats, segments);
  return blocks;
}
