/**
 * The sub-level partition of a MaxScore window (max-score.ts): clauses of
 * alternatives (a word's terms, MaxScorer) split into their subs. A doc's
 * score is at most the sum of the bounds of the units matching it, so the
 * lowest-bound units whose bounds sum to at most the k-th score cannot make a
 * doc competitive on their own. A clause with no other unit becomes
 * non-essential; subs taken from a clause that stays essential sleep: they no
 * longer lead the enumeration and are only consulted to score the docs the
 * others find. Sleeping is decided per window.
 */
import { MaxScorer } from '../scorer/scorers.ts';
import type { Scorer } from '../scorer/scorers.ts';
import { SAFE } from './segment-task.ts';

export class SleepingSubs {
  /** Clauses of alternatives by index, null for others. */
  readonly alts: (MaxScorer | null)[];
  /** Whether the sub-level partition applies (some clause has alternatives, at most 16 clauses). */
  readonly any: boolean;
  /** First essential position of the partition after sleep (rebuilt, or as passed in). */
  fe = 0;
  private readonly n: number;
  // Units: a whole clause (sub -1) or one sub of a clause of alternatives.
  private readonly unitJ: Int32Array;
  private readonly unitI: Int32Array;
  private readonly unitB: Float64Array;
  private readonly unitCost: Float64Array;
  private readonly essential: Uint8Array;

  constructor(clauses: Scorer[]) {
    const n = clauses.length;
    this.n = n;
    this.alts = clauses.map((c) => (c instanceof MaxScorer ? c : null));
    this.any = n <= 16 && this.alts.some((c) => c !== null);
    let nSubs = 0;
    for (const c of this.alts) if (c !== null) nSubs += c.size;
    const nUnits = this.any ? n + nSubs : 0;
    this.unitJ = new Int32Array(nUnits);
    this.unitI = new Int32Array(nUnits);
    this.unitB = new Float64Array(nUnits);
    this.unitCost = new Float64Array(nUnits);
    this.essential = new Uint8Array(this.any ? n : 0);
  }

  /** Wake every sleeping sub; true when one slept. */
  wakeAll(): boolean {
    let any = false;
    if (this.any) {
      for (let j = 0; j < this.n; j++) {
        const c = this.alts[j];
        if (c !== null && c.sleeping) {
          c.wake();
          any = true;
        }
      }
    }
    return any;
  }

  /**
   * Put subs to sleep when the essential units cost less to enumerate than the
   * essential clauses of the clause-level partition (order[fe..n)); then
   * `order` and `prefix` are rebuilt and `this.fe` is the new first essential
   * position (else the `fe` passed in). Returns the sum of the sleeping subs'
   * bounds (0: clause-level partition kept).
   */
  sleep(
    clauses: Scorer[],
    bound: Float64Array,
    fresh: Uint8Array,
    order: Int32Array,
    prefix: Float64Array,
    fe: number,
    windowMax: number,
    minScore: number,
  ): number {
    this.fe = fe;
    const { unitB, unitJ, unitI, unitCost, essential, n } = this;
    let clauseCost = 0;
    for (let k = fe; k < n; k++) clauseCost += clauses[order[k]].cost;
    const m = this.sortUnits(clauses, bound, fresh, windowMax);
    let sum = 0;
    let p = 0;
    for (; p < m; p++) {
      if ((sum + unitB[p]) * SAFE > minScore) break;
      sum += unitB[p];
    }
    essential.fill(0);
    let subCost = 0;
    for (let q = p; q < m; q++) {
      essential[unitJ[q]] = 1;
      subCost += unitCost[q];
    }
    let sleeps = false;
    for (let q = 0; q < p; q++) if (unitI[q] >= 0 && essential[unitJ[q]] === 1) sleeps = true;
    if (!sleeps || subCost >= clauseCost) return 0;
    this.essentialFirst(order, prefix, bound);
    let d = 0;
    for (let q = 0; q < p; q++) {
      if (unitI[q] < 0 || essential[unitJ[q]] === 0) continue;
      this.alts[unitJ[q]]!.sleep(unitI[q]);
      d += unitB[q];
    }
    for (let k = this.fe; k < n; k++) {
      const c = this.alts[order[k]];
      if (c !== null && c.sleeping) c.settle();
    }
    return d;
  }

  /**
   * The window's units (whole clauses, or the subs of a clause of alternatives
   * bounded in this window) by ascending bound; returns how many.
   */
  private sortUnits(clauses: Scorer[], bound: Float64Array, fresh: Uint8Array, windowMax: number): number {
    const { unitB, unitJ, unitI, unitCost, n } = this;
    let m = 0;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      if (bound[j] === 0 || c.doc >= windowMax) continue;
      const a = this.alts[j];
      const split = a !== null && fresh[j] === 1;
      const size = split ? a.size : 1;
      for (let i = 0; i < size; i++) {
        const b = split ? a.subBound(i) : bound[j];
        if (b < 0) continue;
        const cost = split ? a.subCost(i) : c.cost;
        let p = m++;
        while (p > 0 && unitB[p - 1] > b) {
          unitB[p] = unitB[p - 1];
          unitJ[p] = unitJ[p - 1];
          unitI[p] = unitI[p - 1];
          unitCost[p] = unitCost[p - 1];
          p--;
        }
        unitB[p] = b;
        unitJ[p] = j;
        unitI[p] = split ? i : -1;
        unitCost[p] = cost;
      }
    }
    return m;
  }

  /** Rebuild the partition from `essential`: non-essential clauses (ascending bound) first. */
  private essentialFirst(order: Int32Array, prefix: Float64Array, bound: Float64Array): void {
    const { essential, n } = this;
    let w = 0;
    for (let k = 0; k < n; k++) if (essential[order[k]] === 0) order[w++] = order[k];
    const ne = w;
    for (let j = 0; j < n; j++) if (essential[j] === 1) order[w++] = j;
    // (the non-essential part keeps its ascending bounds; the essential part's order does not matter)
    prefix[0] = 0;
    for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k] + bound[order[k]];
    this.fe = ne;
  }
}
