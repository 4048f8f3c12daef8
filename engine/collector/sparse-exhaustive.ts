/**
 * Term-at-a-time exhaustive top-k for queries of a few short postings lists
 * (more-like-this queries of rare terms): each scoring clause in turn adds
 * the scores of all its docs (under the filter bitset, when there is one) into
 * a small open-addressing table, then every accepted doc of the table is
 * offered to the top k. No per-doc merge across the clauses.
 *
 * Same hits, scores and count as `scoreExhaustive` (top-k.ts): a doc's total
 * starts at 0 and receives its clauses' scores in canonical clause order, as
 * scoreExhaustive sums them, so totals are bit-identical; TopDocs keeps the
 * best k by (score, doc) whatever the order of the offers.
 *
 * Applies when the segment has no required or excluded clauses, every scoring
 * clause has `scoreRest` (scorer/scorers.ts) and the clauses hold at most
 * MAX_SPARSE_POSTINGS postings in all; `scoreSparse` returns false otherwise.
 */
import type { Scorer } from '../scorer/scorers.ts';
import { ScoreTable } from '../scorer/score-table.ts';
import type { CollectState, SegmentTask } from './segment-task.ts';
import type { TopDocs } from './top-docs.ts';

/** Largest total postings count scored through the table (it is sized to twice that). */
export const MAX_SPARSE_POSTINGS = 1 << 16;

/** One table per thread: collection never nests or yields. */
const table = new ScoreTable();

/** Scores the segment term-at-a-time when it applies (see the module header); false when it does not. */
export function scoreSparse(t: SegmentTask, top: TopDocs, st: CollectState): boolean {
  if (t.required.length > 0 || t.excluded.length > 0) return false;
  const clauses: Scorer[] = t.scoring;
  let cost = 0;
  for (let j = 0; j < clauses.length; j++) {
    if (clauses[j].scoreRest === undefined) return false;
    cost += clauses[j].cost;
  }
  if (cost > MAX_SPARSE_POSTINGS) return false;
  const bits = t.bits ?? null;
  table.reset(cost);
  for (let j = 0; j < clauses.length; j++) clauses[j].scoreRest!(bits, table);
  const accept = t.accept;
  for (let i = 0; i < table.size; i++) {
    const doc = table.docAt(i);
    if (!accept(doc)) continue;
    st.count++;
    top.offer(table.scoreAt(i), t.docBase + doc);
  }
  table.reset(0);
  return true;
}
