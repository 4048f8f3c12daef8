/**
 * Top-k collection over one segment's scorers.
 *
 *  - `scoreMaxScore`: block-max MaxScore (Turtle & Flood; windows and
 *    re-partitioning as in Lucene's MaxScoreBulkScorer). Doc ids are cut into
 *    windows at postings-block edges; clauses are sorted by their upper bound
 *    within the window (from block impacts); the lowest-bound prefix whose
 *    bounds sum to at most the current k-th score is "non-essential": docs are
 *    only enumerated from the essential clauses, non-essential clauses are
 *    advanced to a candidate only while it can still make the top k.
 *  - `scoreExhaustive`: every matching doc scored in full (reference for tests).
 *  - `scoreConjunctive`: docs matching every required clause, scored in full.
 *  - `collectAll`: every accepted doc, score 0 (empty query).
 *
 * Clauses of alternatives (a word's terms, MaxScorer) are also partitioned
 * per sub within a window: since a doc's score is at most the sum of the
 * bounds of the subs it matches, the lowest-bound subs of the essential
 * clauses whose bounds sum (with the non-essential clauses') to at most the
 * k-th score sleep: they stop leading the enumeration and are only consulted
 * to score the docs the others find. So a very common alternative ("webster"
 * next to the rare German stem "webst") is not walked once its bound is below
 * the threshold. In such a window the partition and the lead stay fixed.
 *
 * When the filter is a bitset, a rejected candidate moves each essential
 * clause straight to its own next doc the filter accepts (block postings test
 * the bits on their decoded blocks, without decoding freqs or scoring). A
 * single clause is also told the bitset (useFilter): its window bounds then
 * need only hold for the docs the filter accepts, so windows without a
 * competitive accepted doc are skipped undecoded (see CombinedScorer.maxScoreIn).
 *
 * Scores are always summed in canonical clause order, so pruned and exhaustive
 * runs yield bit-identical scores. Ties break by global doc id (segment order,
 * then doc id), lowest first. Counting is exact until `threshold` matches are
 * seen; after that, clauses pruned as non-essential skip docs uncounted and
 * `exact` turns false (the count is then a lower bound).
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import { advanceMatching, MaxScorer } from './scorers.ts';
import type { Scorer } from './scorers.ts';
import type { TopDocs } from './top-docs.ts';

export interface CollectState {
  /** Matches seen (exact while `exact`). */
  count: number;
  exact: boolean;
  /** Exact counting up to this many matches before pruning starts. */
  threshold: number;
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
const SAFE = 1 + 1e-9;

function floor(top: TopDocs, st: CollectState): number {
  return st.count >= st.threshold ? top.minScore() : -Infinity;
}

function isExcluded(excluded: Scorer[], doc: number): boolean {
  for (let i = 0; i < excluded.length; i++) {
    const e = excluded[i];
    if (e.doc < doc) e.advance(doc);
    if (e.doc === doc) return true;
  }
  return false;
}

export function scoreSegment(t: SegmentTask, top: TopDocs, st: CollectState, pruning: boolean): void {
  if (t.required.length > 0) scoreConjunctive(t, top, st);
  else if (t.scoring.length === 0) return;
  else if (pruning) scoreMaxScore(t, top, st);
  else scoreExhaustive(t, top, st);
}

/**
 * A clause every competitive doc of the window must match: the bounds of all
 * the other clauses sum to at most `minScore`. The cheapest such clause, or -1.
 * (Only for up to 16 clauses; the sums are taken explicitly, no subtraction.)
 */
function pickLead(clauses: Scorer[], bound: Float64Array, minScore: number): number {
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

export function scoreMaxScore(t: SegmentTask, top: TopDocs, st: CollectState): void {
  const clauses = t.scoring;
  const n = clauses.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const bound = new Float64Array(n);
  const prefix = new Float64Array(n + 1);
  const s = new Float64Array(n);
  const stamp = new Int32Array(n).fill(-1);
  const { accept, excluded, docBase, nextCandidate } = t;
  const bits = t.bits ?? null;
  // Filter-tightened window bounds only pay off where a window can be skipped on one clause's bound.
  if (bits !== null && n === 1) clauses[0].useFilter?.(bits);
  let fe = 0;
  let windowMin = 0;
  /** Essential in the previous window's partition (all, at first). */
  const wasEssential = new Uint8Array(n).fill(1);
  /**
   * Window end: the nearest block edge among the given clauses (at least 32 ids
   * per clause), or -1 when every clause is exhausted. Block cursors only move
   * forward, so a window never shrinks below what earlier bounds covered.
   */
  const windowEdge = (onlyEssential: boolean): number => {
    let wm = NO_MORE_DOCS;
    let any = false;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      if (c.doc === NO_MORE_DOCS) continue;
      any = true;
      if (onlyEssential && wasEssential[j] === 0) continue;
      const e = c.shallowEnd(c.doc > windowMin ? c.doc : windowMin);
      if (e < wm - 1) wm = e + 1;
    }
    if (!any) return -1;
    return wm;
  };
  const partition = (minScore: number): void => {
    if (n <= 16) {
      for (let i = 1; i < n; i++) {
        const v = order[i];
        let k = i - 1;
        while (k >= 0 && bound[order[k]] > bound[v]) {
          order[k + 1] = order[k];
          k--;
        }
        order[k + 1] = v;
      }
    } else {
      order.sort((a, b) => bound[a] - bound[b] || a - b);
    }
    prefix[0] = 0;
    for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + bound[order[i]];
    fe = 0;
    while (fe < n && prefix[fe + 1] * SAFE <= minScore) fe++;
  };
  /** Clauses of alternatives (MaxScorer) by index, null for others; their subs may sleep per window. */
  const alts: (MaxScorer | null)[] = clauses.map((c) => (c instanceof MaxScorer ? c : null));
  const anyAlts = n <= 16 && alts.some((c) => c !== null);
  let nSubs = 0;
  for (const c of alts) if (c !== null) nSubs += c.size;
  // Units of the sub-level partition: a whole clause (sub -1) or one sub of a clause of alternatives.
  const nUnits = anyAlts ? n + nSubs : 0;
  const unitJ = new Int32Array(nUnits);
  const unitI = new Int32Array(nUnits);
  const unitB = new Float64Array(nUnits);
  const unitCost = new Float64Array(nUnits);
  const essential = new Uint8Array(anyAlts ? n : 0);
  /** Bounds of clause j were computed for this window (its subs' bounds may be used). */
  const fresh = new Uint8Array(n);
  /** Wake every sleeping sub; true when one slept. */
  const wakeAll = (): boolean => {
    let any = false;
    if (anyAlts) {
      for (let j = 0; j < n; j++) {
        const c = alts[j];
        if (c !== null && c.sleeping) {
          c.wake();
          any = true;
        }
      }
    }
    return any;
  };
  /**
   * Sub-level partition (clauses of alternatives split into their subs): a
   * doc's score is at most the sum of the bounds of the units matching it, so
   * the lowest-bound units whose bounds sum to at most minScore cannot make a
   * doc competitive on their own. A clause with no other unit becomes
   * non-essential; subs taken from a clause that stays essential sleep (they
   * no longer lead the enumeration and are only consulted to score the docs
   * the others find). Used when the essential units cost less to enumerate
   * than the essential clauses of the clause-level partition; then `order`,
   * `prefix` and `fe` are rebuilt. Returns the sum of the sleeping subs'
   * bounds (0: clause-level partition kept).
   */
  const sleepSubs = (minScore: number, windowMax: number): number => {
    let m = 0;
    let clauseCost = 0;
    for (let k = fe; k < n; k++) clauseCost += clauses[order[k]].cost;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      if (bound[j] === 0 || c.doc >= windowMax) continue;
      const a = alts[j];
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
    // Rebuild the partition: non-essential clauses (ascending bound) first.
    let w = 0;
    for (let k = 0; k < n; k++) if (essential[order[k]] === 0) order[w++] = order[k];
    const ne = w;
    for (let j = 0; j < n; j++) if (essential[j] === 1) order[w++] = j;
    // (the non-essential part keeps its ascending bounds; the essential part's order does not matter)
    prefix[0] = 0;
    for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k] + bound[order[k]];
    fe = ne;
    let d = 0;
    for (let q = 0; q < p; q++) {
      if (unitI[q] < 0 || essential[unitJ[q]] === 0) continue;
      alts[unitJ[q]]!.sleep(unitI[q]);
      d += unitB[q];
    }
    for (let k = fe; k < n; k++) {
      const c = alts[order[k]];
      if (c !== null && c.sleeping) c.settle();
    }
    return d;
  };
  while (windowMin < NO_MORE_DOCS) {
    const minScore = floor(top, st);
    let boundsValid = false;
    /** Sum of the bounds of the subs asleep in this window (0: none; then leads and partition updates are allowed). */
    let dormant = 0;
    let windowMax: number;
    fe = 0;
    if (minScore === -Infinity) {
      // No pruning yet: windows at the nearest block edge of any clause.
      windowMax = windowEdge(false);
      if (windowMax < 0) return;
      if (windowMax < windowMin + 32 * n) windowMax = Math.min(NO_MORE_DOCS, windowMin + 32 * n);
      wasEssential.fill(1);
    } else {
      // Pass 1 (as Lucene): window from the clauses essential so far, whose blocks
      // bound it; the others are bounded by their global maximum (cursors untouched).
      // If one of them turns essential, pass 2 cuts the window at every clause's
      // nearest block edge and bounds all clauses per block.
      // Subs asleep in the previous window do not cut this one (they were past
      // its bounds); then they wake: sleeping is decided per window.
      windowMax = windowEdge(true);
      if (wakeAll() && windowMax < 0) windowMax = windowEdge(true);
      if (windowMax < 0) return;
      // A sparse clause left behind (its block reaches past the window) moves to
      // the window: one block decode for several windows, and a bound of 0 when
      // it has no doc there.
      for (let j = 0; j < n; j++) {
        const c = clauses[j];
        if (wasEssential[j] === 0 && c.doc < windowMin && c.shallowEnd(windowMin) >= windowMax - 1) c.advance(windowMin);
      }
      // One clause: any bound at most minScore skips the window, however loose.
      const floorArg = n === 1 ? minScore : Infinity;
      for (let j = 0; j < n; j++) {
        const c = clauses[j];
        fresh[j] = wasEssential[j];
        bound[j] = c.doc >= windowMax ? 0 : wasEssential[j] ? c.maxScoreIn(windowMin, windowMax - 1, floorArg) : c.maxScore;
      }
      partition(minScore);
      let grew = false;
      for (let i = fe; i < n; i++) if (wasEssential[order[i]] === 0) grew = true;
      if (grew) {
        windowMax = windowEdge(false);
        if (windowMax < windowMin + 32 * n) windowMax = Math.min(NO_MORE_DOCS, windowMin + 32 * n);
        for (let j = 0; j < n; j++) {
          const c = clauses[j];
          fresh[j] = 1;
          bound[j] = c.doc >= windowMax ? 0 : c.maxScoreIn(windowMin, windowMax - 1, floorArg);
        }
        partition(minScore);
      }
      if (anyAlts) {
        dormant = sleepSubs(minScore, windowMax);
        if (dormant > 0) st.exact = false;
      }
      wasEssential.fill(0);
      for (let i = fe; i < n; i++) wasEssential[order[i]] = 1;
      boundsValid = true;
      if (fe > 0) st.exact = false;
      if (fe === n) {
        windowMin = windowMax;
        continue;
      }
    }
    let lead = boundsValid && dormant === 0 ? pickLead(clauses, bound, minScore) : -1;
    if (lead >= 0) st.exact = false;
    for (let i = fe; i < n; i++) {
      const c = clauses[order[i]];
      if (c.doc < windowMin) c.advance(windowMin);
    }
    if (lead >= 0 && clauses[lead].doc < windowMin) clauses[lead].advance(windowMin);
    let doc = NO_MORE_DOCS;
    if (lead >= 0) doc = clauses[lead].doc;
    else for (let i = fe; i < n; i++) if (clauses[order[i]].doc < doc) doc = clauses[order[i]].doc;

    while (doc < windowMax) {
      if (lead >= 0) {
        // Only docs of the required lead can compete: essential clauses jump to them.
        for (let i = fe; i < n; i++) {
          const c = clauses[order[i]];
          if (c.doc < doc) c.advance(doc);
        }
      }
      if (!accept(doc) || (excluded.length > 0 && isExcluded(excluded, doc))) {
        if (bits !== null) {
          for (let i = fe; i < n; i++) {
            const c = clauses[order[i]];
            if (c.doc <= doc) advanceMatching(c, doc + 1, bits);
          }
          if (lead >= 0 && clauses[lead].doc <= doc) advanceMatching(clauses[lead], doc + 1, bits);
        } else {
          const next = nextCandidate !== null ? nextCandidate(doc + 1) : doc + 1;
          for (let i = fe; i < n; i++) {
            const c = clauses[order[i]];
            if (c.doc < next) {
              if (c.doc === doc && next === doc + 1) c.nextDoc();
              else c.advance(next);
            }
          }
          if (lead >= 0 && clauses[lead].doc < next) clauses[lead].advance(next);
        }
      } else {
        st.count++;
        // Bound of this doc from the essential clauses' per-doc bounds (no freqs
        // decoded) and the non-essential bounds: if it cannot compete, pass over it.
        let ub = lead < 0 ? prefix[fe] + dormant : Infinity;
        for (let i = fe; i < n && ub !== Infinity; i++) {
          const c = clauses[order[i]];
          if (c.doc === doc) ub += c.docBound !== undefined ? c.docBound() : Infinity;
        }
        if (ub * SAFE <= floor(top, st)) {
          for (let i = fe; i < n; i++) {
            const c = clauses[order[i]];
            if (c.doc !== doc) continue;
            if (bits !== null) advanceMatching(c, doc + 1, bits);
            else c.nextDoc();
          }
        } else {
        let partial = 0;
        for (let i = fe; i < n; i++) {
          const j = order[i];
          const c = clauses[j];
          if (c.doc === doc) {
            const v = c.score();
            s[j] = v;
            stamp[j] = doc;
            partial += v;
            if (bits !== null) advanceMatching(c, doc + 1, bits);
            else c.nextDoc();
          } else if (dormant > 0 && alts[j] !== null) {
            const v = alts[j]!.scoreAt(doc);
            if (v >= 0) {
              s[j] = v;
              stamp[j] = doc;
              partial += v;
            }
          }
        }
        let competitive = true;
        if (fe > 0) {
          const min = floor(top, st);
          for (let i = fe - 1; i >= 0; i--) {
            if ((partial + prefix[i + 1]) * SAFE <= min) {
              competitive = false;
              break;
            }
            const j = order[i];
            const c = clauses[j];
            if (c.doc < doc) c.advance(doc);
            if (c.doc === doc) {
              const v = c.score();
              s[j] = v;
              stamp[j] = doc;
              partial += v;
            }
          }
        }
        if (lead >= 0 && clauses[lead].doc === doc) {
          if (bits !== null) advanceMatching(clauses[lead], doc + 1, bits);
          else clauses[lead].nextDoc();
        }
        if (competitive) {
          let total = 0;
          for (let j = 0; j < n; j++) if (stamp[j] === doc) total += s[j];
          top.offer(total, docBase + doc);
          if (boundsValid && dormant === 0) {
            const min = floor(top, st);
            while (fe < n && prefix[fe + 1] * SAFE <= min) {
              fe++;
              st.exact = false;
            }
            if (fe === n) break;
            if (lead < 0) {
              lead = pickLead(clauses, bound, min);
              if (lead >= 0) {
                st.exact = false;
                if (clauses[lead].doc <= doc) clauses[lead].advance(doc + 1);
              }
            }
          }
        }
        }
      }
      doc = NO_MORE_DOCS;
      if (lead >= 0) doc = clauses[lead].doc;
      else for (let i = fe; i < n; i++) if (clauses[order[i]].doc < doc) doc = clauses[order[i]].doc;
    }
    windowMin = windowMax;
  }
}

export function scoreExhaustive(t: SegmentTask, top: TopDocs, st: CollectState): void {
  const clauses = t.scoring;
  const n = clauses.length;
  let doc = NO_MORE_DOCS;
  for (let j = 0; j < n; j++) {
    const d = clauses[j].nextDoc();
    if (d < doc) doc = d;
  }
  while (doc !== NO_MORE_DOCS) {
    if (t.accept(doc) && !isExcluded(t.excluded, doc)) {
      st.count++;
      let total = 0;
      for (let j = 0; j < n; j++) if (clauses[j].doc === doc) total += clauses[j].score();
      top.offer(total, t.docBase + doc);
    }
    let next = NO_MORE_DOCS;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      if (c.doc === doc) c.nextDoc();
      if (c.doc < next) next = c.doc;
    }
    doc = next;
  }
}

export function scoreConjunctive(t: SegmentTask, top: TopDocs, st: CollectState): void {
  const req = [...t.required].sort((a, b) => a.cost - b.cost);
  const lead = req[0];
  const clauses = t.scoring;
  let doc = lead.nextDoc();
  outer: while (doc !== NO_MORE_DOCS) {
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
