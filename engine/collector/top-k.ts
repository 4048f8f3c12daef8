/**
 * Top-k collection over one segment's scorers.
 *
 *  - `scoreMaxScore` (max-score.ts): block-max MaxScore (Turtle & Flood;
 *    windows as in Lucene's MaxScoreBulkScorer). Doc ids are cut into
 *    windows at postings-block edges; clauses are sorted by their upper bound
 *    within the window (from block impacts); the lowest-bound prefix whose
 *    bounds sum to at most the current k-th score is "non-essential": docs are
 *    only enumerated from the essential clauses, non-essential clauses are
 *    advanced to a candidate only while it can still make the top k.
 *  - `scoreExhaustive`: every matching doc scored in full (reference for tests).
 *  - `scoreSparse` (sparse-exhaustive.ts): the same, term-at-a-time, for a few short lists.
 *  - `scoreConjunctive`: docs matching every required clause, scored in full.
 *  - `collectAll`: every accepted doc, score 0 (empty query).
 *
 * Scores are always summed in canonical clause order, so pruned and exhaustive
 * runs yield bit-identical scores. Ties break by global doc id (segment order,
 * then doc id), lowest first. Counting is exact until `threshold` matches are
 * seen; after that, clauses pruned as non-essential skip docs uncounted and
 * `exact` turns false (the count is then a lower bound).
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import { scoreMaxScore } from './max-score.ts';
import { scoreSparse } from './sparse-exhaustive.ts';
import { advanceMatching } from '../scorer/scorers.ts';
import { isExcluded as isExcludedAt } from './segment-task.ts';
import type { CollectState, SegmentTask } from './segment-task.ts';
import type { TopDocs } from './top-docs.ts';

export type { CollectState, SegmentTask } from './segment-task.ts';
export { scoreMaxScore } from './max-score.ts';

/** Module-local binding (read per doc by the collectors below; see max-score.ts). */
const isExcluded = isExcludedAt;

/** The doc-at-a-time collectors ask the budget every this many docs (a power of two): their window boundaries. */
const BUDGET_STRIDE = 128;

/**
 * `mode`: 'pruned' (MaxScore), 'exhaustive', or 'sparse' (exhaustive, term-at-a-time where
 * sparse-exhaustive.ts applies: same hits and scores as 'exhaustive').
 */
export function scoreSegment(
  t: SegmentTask,
  top: TopDocs,
  st: CollectState,
  mode: 'pruned' | 'exhaustive' | 'sparse',
): void {
  if (t.required.length > 0) scoreConjunctive(t, top, st);
  else if (t.scoring.length === 0) return;
  else if (mode === 'pruned') scoreMaxScore(t, top, st);
  else if (mode === 'exhaustive' || !scoreSparse(t, top, st)) scoreExhaustive(t, top, st);
}

/** Every matching doc scored in full; under a filter bitset the clauses skip the docs it rejects. */
export function scoreExhaustive(t: SegmentTask, top: TopDocs, st: CollectState): void {
  const clauses = t.scoring;
  const n = clauses.length;
  const bits = t.bits ?? null;
  let doc = NO_MORE_DOCS;
  for (let j = 0; j < n; j++) {
    const d = bits !== null ? advanceMatching(clauses[j], 0, bits) : clauses[j].nextDoc();
    if (d < doc) doc = d;
  }
  const budget = st.budget ?? null;
  let seen = 0;
  while (doc !== NO_MORE_DOCS) {
    // every BUDGET_STRIDE docs a window boundary: the docs below `doc` are scored
    if (budget !== null && (++seen & (BUDGET_STRIDE - 1)) === 0 && budget.exhausted()) {
      st.exact = false;
      return;
    }
    if (t.accept(doc) && !isExcluded(t.excluded, doc)) {
      st.count++;
      let total = 0;
      for (let j = 0; j < n; j++) if (clauses[j].doc === doc) total += clauses[j].score();
      top.offer(total, t.docBase + doc);
    }
    let next = NO_MORE_DOCS;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      if (c.doc === doc) {
        if (bits !== null) advanceMatching(c, doc + 1, bits);
        else c.nextDoc();
      }
      if (c.doc < next) next = c.doc;
    }
    doc = next;
  }
}

export function scoreConjunctive(t: SegmentTask, top: TopDocs, st: CollectState): void {
  const req = [...t.required].sort((a, b) => a.cost - b.cost);
  const lead = req[0];
  const clauses = t.scoring;
  const budget = st.budget ?? null;
  let seen = 0;
  let doc = lead.nextDoc();
  outer: while (doc !== NO_MORE_DOCS) {
    // every BUDGET_STRIDE lead docs a window boundary: the docs below `doc` are scored
    if (budget !== null && (++seen & (BUDGET_STRIDE - 1)) === 0 && budget.exhausted()) {
      st.exact = false;
      return;
    }
    for (let i = 1; i < req.length; i++) {
      const r = req[i];
      if (r.doc < doc) r.advance(doc);
      if (r.doc > doc) {
        if (r.doc === NO_MORE_DOCS) return;
        doc = lead.advance(r.doc);
        continue outer;
      }
    }
    if (t.accept(doc) && !isExcluded(t.excluded, doc)) {
      st.count++;
      let total = 0;
      for (let j = 0; j < clauses.length; j++) {
        const c = clauses[j];
        if (c.doc < doc) c.advance(doc);
        if (c.doc === doc) total += c.score();
      }
      top.offer(total, t.docBase + doc);
    }
    doc = lead.nextDoc();
  }
}

/** Empty query: every accepted doc matches with score 0, in index order. */
export function collectAll(t: SegmentTask, top: TopDocs, st: CollectState): void {
  for (let doc = 0; doc < t.maxDoc; doc++) {
    if (!t.accept(doc)) continue;
    st.count++;
    if (!top.full) top.offer(0, t.docBase + doc);
  }
}
