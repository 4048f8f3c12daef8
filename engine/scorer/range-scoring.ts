/**
 * Range scoring: a scorer's scores for every doc of a doc-id range written
 * into a column (Scorer.scoreRange, or score() doc by doc), and the nested
 * scratch columns it uses. The term-at-a-time window collector
 * (collector/bulk-window.ts) and the scorers of alternatives and of several
 * fields (scorers.ts, combined-scorer.ts) share them.
 */
import type { Scorer } from './scorers.ts';

/** Largest number of doc ids scored at once (scratch arrays are this long). */
export const WINDOW_IDS = 2048;

/**
 * Scratch arrays for nested range scoring (the collector, a MaxScorer, the
 * CombinedScorers under it): one pair per nesting depth, kept all-zero between
 * uses (each user clears the entries it set while reading them back).
 */
const pool: { values: Float64Array; marks: Uint8Array }[] = [];
let depth = 0;

/** Scratch pair for one level of nesting; release with releaseScratch(). */
export function acquireScratch(): { values: Float64Array; marks: Uint8Array } {
  if (depth === pool.length) pool.push({ values: new Float64Array(WINDOW_IDS), marks: new Uint8Array(WINDOW_IDS) });
  return pool[depth++];
}

export function releaseScratch(): void {
  depth--;
}

/**
 * Adds (or, with `max`, takes the maximum of) `s`'s score for each of its docs
 * in [its current doc, hi) into out[d - lo] and sets marks[d - lo]; leaves `s`
 * on its first doc >= hi. Requires lo <= s.doc and hi - lo <= WINDOW_IDS.
 */
export function scoreRange(
  s: Scorer,
  lo: number,
  hi: number,
  out: Float64Array,
  marks: Uint8Array,
  max: boolean,
): void {
  if (s.scoreRange !== undefined) s.scoreRange(lo, hi, out, marks, max);
  else scoreRangeByDoc(s, lo, hi, out, marks, max);
}

/** scoreRange through score() and nextDoc() (scorers without a bulk form, or in a state it does not cover). */
export function scoreRangeByDoc(
  s: Scorer,
  lo: number,
  hi: number,
  out: Float64Array,
  marks: Uint8Array,
  max: boolean,
): void {
  for (let d = s.doc; d < hi; d = s.nextDoc()) {
    const v = s.score();
    const i = d - lo;
    if (max) {
      if (v > out[i]) out[i] = v;
    } else out[i] += v;
    marks[i] = 1;
  }
}
