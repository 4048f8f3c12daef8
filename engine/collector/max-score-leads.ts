/**
 * The required clauses of a MaxScore window (max-score.ts): the lead, a clause
 * every competitive doc matches because the other clauses' bounds sum to at
 * most the k-th score, and under a filter the other required clauses that are
 * leapfrogged with it as in a conjunction.
 */
import { advanceMatching } from '../scorer/scorers.ts';
import type { Scorer } from '../scorer/scorers.ts';
import { SAFE } from './segment-task.ts';

/**
 * A clause every competitive doc of the window must match: the bounds of all
 * the other clauses sum to at most `minScore`. The cheapest such clause, or -1.
 * (Only for up to 16 clauses; the sums are taken explicitly, no subtraction.)
 */
export function pickLead(clauses: Scorer[], bound: Float64Array, minScore: number): number {
  const n = clauses.length;
  if (n < 2 || n > 16 || minScore === -Infinity) return -1;
  let best = -1;
  for (let j = 0; j < n; j++) {
    let others = 0;
    for (let k = 0; k < n; k++) if (k !== j) others += bound[k];
    if (others * SAFE <= minScore && (best < 0 || clauses[j].cost < clauses[best].cost)) best = j;
  }
  return best;
}

/**
 * Clauses every competitive doc of the window must match: the bounds of all
 * the other clauses sum to at most `minScore`. Writes them to `req`, the
 * cheapest first, and returns how many.
 * (Only for up to 16 clauses; the sums are taken explicitly, no subtraction.)
 */
export function pickRequired(clauses: Scorer[], bound: Float64Array, minScore: number, req: Int32Array): number {
  const n = clauses.length;
  if (n < 2 || n > 16 || minScore === -Infinity) return 0;
  let m = 0;
  for (let j = 0; j < n; j++) {
    let others = 0;
    for (let k = 0; k < n; k++) if (k !== j) others += bound[k];
    if (others * SAFE > minScore) continue;
    req[m++] = j;
    if (clauses[j].cost < clauses[req[0]].cost) {
      req[m - 1] = req[0];
      req[0] = j;
    }
  }
  return m;
}

/**
 * Of the m required clauses in `req`: the ones other than `lead` with postings
 * at most twice as long as the lead's, written to `others`; returns how many.
 * (Moving a much denser one to every lead doc decodes about all its blocks;
 * its docs are checked when scoring.)
 */
export function leapfrogged(clauses: Scorer[], req: Int32Array, m: number, lead: number, others: Int32Array): number {
  const most = 2 * clauses[lead].cost;
  let k = 0;
  for (let q = 0; q < m; q++) if (req[q] !== lead && clauses[req[q]].cost <= most) others[k++] = req[q];
  return k;
}

/**
 * The first doc >= d of the lead (at d) that each of the first nOthers
 * clauses of `others` matches (each moved to it, skipping docs `bits` rejects),
 * or a doc >= windowMax. The lead is not moved past windowMax: the next
 * window's requirements may differ.
 */
export function leapfrog(
  clauses: Scorer[],
  lead: number,
  others: Int32Array,
  nOthers: number,
  bits: Uint32Array | null,
  d: number,
  windowMax: number,
): number {
  const l = clauses[lead];
  for (;;) {
    let target = d;
    for (let q = 0; q < nOthers; q++) {
      const r = clauses[others[q]];
      if (r.doc < d) {
        if (bits !== null) advanceMatching(r, d, bits);
        else r.advance(d);
      }
      if (r.doc > target) target = r.doc;
    }
    if (target === d) return d;
    if (target > windowMax) target = windowMax;
    d = bits !== null ? advanceMatching(l, target, bits) : l.advance(target);
    if (d >= windowMax) return d;
  }
}
