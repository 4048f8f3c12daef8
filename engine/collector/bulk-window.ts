/**
 * Term-at-a-time scoring of a doc-id window (as Lucene's BooleanScorer does
 * for dense disjunctions): each essential clause in turn writes the scores of
 * all its docs in the window to its column, then each doc found is checked
 * (live, filter, excluded clauses), counted, completed by the sleeping
 * alternatives and the non-essential clauses only while it can still compete,
 * and offered to the top k (scoreWindowBulk).
 *
 * The collector (max-score.ts) uses it, without a filter bitset, for windows
 * whose essential clauses are dense: where pruning leaves most docs to look
 * at, walking the clauses one by one over a window is several times cheaper
 * per posting than merging them doc by doc and bounding each doc.
 *
 * Scores are identical to doc-at-a-time scoring: a doc's total is summed over
 * the clause columns in canonical order from 0, as the collectors'
 * `total += s[j]` does (a clause without the doc holds 0, and x + 0 = x);
 * each clause scores a doc with the same arithmetic as its score() (see
 * Scorer.scoreRange).
 */
import type { MaxScorer, Scorer } from '../scorer/scorers.ts';
import { floor as floorOf, isExcluded as isExcludedAt, SAFE as SAFE_MARGIN } from './segment-task.ts';
import type { CollectState, SegmentTask } from './segment-task.ts';
import type { TopDocs } from './top-docs.ts';
import { scoreRange, WINDOW_IDS } from '../scorer/range-scoring.ts';

/** Module-local bindings (read per doc; see max-score.ts). */
const isExcluded = isExcludedAt;
const floor = floorOf;
const SAFE = SAFE_MARGIN;

/** Per-clause score columns for scoreWindowBulk: WINDOW_IDS entries per clause and a union mark, all-zero between uses. */
export interface WindowColumns {
  cols: Float64Array[];
  union: Uint8Array;
  /** The essential clauses' columns of the current window (scratch). */
  ess: Float64Array[];
}

/** Column sets by clause count, reused across searches (a search runs to its end synchronously). */
const columnSets: (WindowColumns | undefined)[] = [];

/** The (all-zero) column set for n clauses. */
export function windowColumns(n: number): WindowColumns {
  let w = columnSets[n];
  if (w === undefined) {
    const cols: Float64Array[] = [];
    for (let j = 0; j < n; j++) cols.push(new Float64Array(WINDOW_IDS));
    w = { cols, union: new Uint8Array(WINDOW_IDS), ess: cols.slice() };
    if (n <= 64) columnSets[n] = w;
  }
  return w;
}

/**
 * Scores the window [lo, hi) with MaxScore's partition (`order`, `fe`,
 * `prefix` as in max-score.ts): the essential clauses order[fe..n) term at a
 * time into their columns; then per doc they found, in order: the live and
 * filter check, the count, and the non-essential clauses (highest bound
 * first) only while the doc can still beat the k-th score; a competitive doc's
 * total is summed over the columns in canonical clause order (a clause that
 * does not match it holds 0, and x + 0 = x). Each essential clause must be on
 * a doc >= lo; they end on their first doc >= hi.
 *
 * `dormant` is the sum of the bounds of the subs asleep in essential clauses
 * of alternatives (`alts`): a doc that could compete with them gets their
 * scores (MaxScorer.withDormant) before the non-essential clauses are asked.
 */
export function scoreWindowBulk(
  t: SegmentTask,
  top: TopDocs,
  st: CollectState,
  lo: number,
  hi: number,
  order: Int32Array,
  fe: number,
  prefix: Float64Array,
  dormant: number,
  alts: readonly (MaxScorer | null)[],
  w: WindowColumns,
): void {
  const clauses = t.scoring;
  const n = clauses.length;
  const { accept, excluded, docBase } = t;
  const { cols, union, ess } = w;
  const m = n - fe;
  for (let k = fe; k < n; k++) ess[k - fe] = cols[order[k]];
  const e0 = ess[0];
  try {
    for (let start = lo; start < hi; start += WINDOW_IDS) {
      const end = hi - start > WINDOW_IDS ? start + WINDOW_IDS : hi;
      let any = false;
      for (let k = fe; k < n; k++) {
        const j = order[k];
        const c = clauses[j];
        if (c.doc >= end) continue;
        scoreRange(c, start, end, cols[j], union, false);
        any = true;
      }
      if (!any) continue;
      const width = end - start;
      // The columns and marks of the chunk are cleared at its end, all at once.
      for (let i = 0; i < width; i++) {
        if (union[i] === 0) continue;
        const doc = start + i;
        if (!accept(doc) || (excluded.length > 0 && isExcluded(excluded, doc))) continue;
        st.count++;
        if (fe > 0 || dormant > 0) {
          let partial = e0[i];
          for (let k = 1; k < m; k++) partial += ess[k][i];
          const min = floor(top, st);
          if (dormant > 0) {
            // sleeping subs of the essential clauses complete the doc's scores, while it can still compete
            if ((partial + dormant + prefix[fe]) * SAFE <= min) continue;
            partial = 0;
            for (let k = fe; k < n; k++) {
              const j = order[k];
              const a = alts[j];
              const col = cols[j];
              if (a !== null && a.sleeping) {
                const v = a.withDormant(doc, col[i]);
                if (v > col[i]) col[i] = v;
              }
              partial += col[i];
            }
          }
          if (fe > 0) {
            let competitive = true;
            for (let k = fe - 1; k >= 0; k--) {
              if ((partial + prefix[k + 1]) * SAFE <= min) {
                competitive = false;
                break;
              }
              const j = order[k];
              const c = clauses[j];
              if (c.doc < doc) c.advance(doc);
              if (c.doc === doc) {
                const v = c.score();
                cols[j][i] = v;
                partial += v;
              }
            }
            if (!competitive) continue;
          }
        }
        let total = 0;
        for (let j = 0; j < n; j++) total += cols[j][i];
        top.offer(total, docBase + doc);
      }
      union.fill(0, 0, width);
      for (let j = 0; j < n; j++) cols[j].fill(0, 0, width);
    }
  } catch (err) {
    for (const c of cols) c.fill(0);
    union.fill(0);
    throw err;
  }
}
