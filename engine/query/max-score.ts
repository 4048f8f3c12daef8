/**
 * Block-max MaxScore over one segment's scorers (Turtle & Flood; windows and
 * re-partitioning as in Lucene's MaxScoreBulkScorer; see top-k.ts for the
 * collectors' contract: canonical score order, ties, counting). Doc ids are
 * cut into windows at postings-block edges; the clauses whose window bounds
 * sum to at most the k-th score are non-essential: docs are enumerated from
 * the essential clauses only (pass 1 cuts the window at the block edges of the
 * clauses essential before, pass 2 at every clause's when one more turns
 * essential).
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
 * Clauses every competitive doc of a window must match (the other clauses'
 * bounds sum to at most the k-th score) are required there: the cheapest
 * leads (the essential clauses jump to its docs). Under a filter bitset, the
 * others, unless far denser, are also leapfrogged as in a conjunction, so a
 * lead doc one of them lacks is skipped, and lead docs are bounded per doc
 * before scoring (while that passes over at least half of them).
 *
 * A clause of one term over several fields (CombinedScorer) can also narrow
 * the fields that lead its enumeration: when the window's docs that lack the
 * term in some fields L cannot compete (e.g. "webster" in the body only, under
 * a filter that leaves few high-scoring docs), only L's postings are walked,
 * the others lag and are read only to bound and score the docs L finds. The
 * next window is then cut at L's block edges only; its bounds are taken with
 * every field (the lagging ones over all their blocks up to the window's end),
 * so that window is never shrunk afterwards. A skipped window keeps the
 * previous window's essential clauses for cutting the next one.
 *
 * Without a filter bitset none of the filter-only steps above run (leapfrogging,
 * per-doc bounds under a lead, narrowing, essential clauses kept over skipped
 * windows): there they cost more than they save on unfiltered queries.
 *
 * When the filter is a bitset, a rejected candidate moves each essential
 * clause straight to its own next doc the filter accepts (block postings test
 * the bits on their decoded blocks, without decoding freqs or scoring). A
 * single clause is also told the bitset (useFilter): its window bounds then
 * need only hold for the docs the filter accepts, so windows without a
 * competitive accepted doc are skipped undecoded (see CombinedScorer.maxScoreIn).
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import { advanceMatching, MaxScorer } from './scorers.ts';
import type { Scorer } from './scorers.ts';
import { CombinedScorer } from './combined-scorer.ts';
import { scoreWindowBulk, windowColumns } from './bulk-window.ts';
import type { WindowColumns } from './bulk-window.ts';
import { floor as floorOf, isExcluded as isExcludedAt, SAFE as SAFE_MARGIN } from './segment-task.ts';
import type { CollectState, SegmentTask } from './segment-task.ts';
import type { TopDocs } from './top-docs.ts';
import { WINDOWS_PER_CHECK } from './budget.ts';

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

/**
 * Clauses every competitive doc of the window must match: the bounds of all
 * the other clauses sum to at most `minScore`. Writes them to `req`, the
 * cheapest first, and returns how many.
 * (Only for up to 16 clauses; the sums are taken explicitly, no subtraction.)
 */
function pickRequired(clauses: Scorer[], bound: Float64Array, minScore: number, req: Int32Array): number {
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
function leapfrogged(clauses: Scorer[], req: Int32Array, m: number, lead: number, others: Int32Array): number {
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
function leapfrog(
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

/**
 * Module-local bindings of the shared helpers: the hot loop below reads these
 * on every doc, and an imported binding costs a load per use (about 1-2% of
 * an unfiltered query's CPU in a same-process A/B).
 */
const SAFE = SAFE_MARGIN;
const floor = floorOf;
const isExcluded = isExcludedAt;

const NONE = new Int32Array(0);
/** Bulk scoring needs the clauses' postings to hold at least 1/BULK_DENSITY of the segment's doc ids. */
const BULK_DENSITY = 16;

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
  /**
   * Under a filter bitset (few accepted docs, so bounds per doc and skipping pay
   * off): required clauses other than the lead are leapfrogged, docs are bounded
   * per doc under a lead, a skipped window keeps its essential clauses, and
   * clauses over several fields may narrow. Without one, none of that: the
   * plain MaxScore path, which is cheaper there.
   */
  const filtered = bits !== null;
  /**
   * Without a filter bitset, a window whose essential clauses are dense (their
   * postings hold at least 1/BULK_DENSITY of the segment's ids, so walking the
   * window's ids costs little next to them) is scored term at a time
   * (bulk-window.ts): cheaper per doc than merging and bounding doc by doc
   * where pruning leaves most docs to look at. Under a filter bitset the
   * essential clauses skip the rejected docs instead.
   */
  let totalCost = 0;
  for (let j = 0; j < n; j++) totalCost += clauses[j].cost;
  const bulk = !filtered && totalCost * BULK_DENSITY >= t.maxDoc;
  let columns: WindowColumns | null = null;
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
  /**
   * The lead: a clause every competitive doc of the window matches (-1: none),
   * whose docs the essential clauses jump to (kept once chosen in a window: it
   * stays required as minScore grows). Under a filter, `others` (the first
   * nOthers entries) are the other required clauses leapfrogged with it.
   * (lead and nOthers are locals of the loop below, not captured by closures.)
   */
  const req = filtered && n <= 16 ? new Int32Array(n) : NONE;
  const others = filtered && n <= 16 ? new Int32Array(n) : NONE;
  /** Clauses that can narrow the fields leading their enumeration per window (CombinedScorer.restrict). */
  const narrowing = filtered && n <= 16 ? clauses.map((c) => (c instanceof CombinedScorer ? c : null)) : null;
  const anyNarrowing = narrowing !== null && narrowing.some((c) => c !== null);
  let narrowed = false;
  /**
   * A clause of one term over several fields, essential (wasEssential) in the
   * window: when the window's docs without the term in some fields cannot
   * compete, only those fields lead (until the next window's start).
   */
  const narrow = (minScore: number, windowMin: number, windowMax: number): void => {
    for (let j = 0; j < n; j++) {
      const c = narrowing![j];
      if (c === null || wasEssential[j] === 0) continue;
      let others = 0;
      for (let k = 0; k < n; k++) if (k !== j) others += bound[k];
      if (c.restrict(windowMin, windowMax - 1, minScore, others)) {
        narrowed = true;
        st.exact = false;
      }
    }
  };
  /** Docs bounded with docBound under a lead in this segment, and how many of them it passed over. */
  let leadBounds = 0;
  let leadPassed = 0;
  const budget = st.budget ?? null;
  /** Window boundaries until the budget is asked again (the first one is asked: seeding may have spent it). */
  let untilCheck = 1;
  while (windowMin < NO_MORE_DOCS) {
    // A window boundary: every doc below windowMin is scored or pruned exactly.
    if (budget !== null && --untilCheck === 0) {
      untilCheck = WINDOWS_PER_CHECK;
      if (budget.exhausted()) {
        st.exact = false;
        return;
      }
    }
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
      if (narrowed) {
        // Narrowed clauses cut the window at their leading fields' block edges only
        // (the lagging fields have not passed windowMin); now every field leads
        // again, and the narrowing is decided anew from this window's bounds. When
        // a clause's leading fields are exhausted, its other fields cut the window.
        let again = windowMax < 0;
        for (let j = 0; j < n; j++) {
          const c = narrowing![j];
          if (c === null) continue;
          if (c.doc === NO_MORE_DOCS) again = true;
          c.release();
        }
        narrowed = false;
        if (again) windowMax = windowEdge(true);
      }
      if (windowMax < 0) return;
      // A sparse clause left behind (its block reaches past the window) moves to
      // the window: one block decode for several windows, and a bound of 0 when
      // it has no doc there.
      for (let j = 0; j < n; j++) {
        const c = clauses[j];
        if (wasEssential[j] === 0 && c.doc < windowMin && c.shallowEnd(windowMin) >= windowMax - 1)
          c.advance(windowMin);
      }
      // One clause: any bound at most minScore skips the window, however loose.
      const floorArg = n === 1 ? minScore : Infinity;
      for (let j = 0; j < n; j++) {
        const c = clauses[j];
        fresh[j] = wasEssential[j];
        bound[j] =
          c.doc >= windowMax ? 0 : wasEssential[j] ? c.maxScoreIn(windowMin, windowMax - 1, floorArg) : c.maxScore;
      }
      partition(minScore);
      let grew = false;
      for (let i = fe; i < n; i++) if (wasEssential[order[i]] === 0) grew = true;
      if (grew) {
        // Pass 2: the window is cut at every clause's nearest block edge and all clauses are
        // bounded again. A clause whose block cursor moved past windowMin in pass 1 (over
        // several blocks of a lagging field) bounds the range by its global maximum.
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
      boundsValid = true;
      if (fe > 0) st.exact = false;
      if (!filtered) {
        wasEssential.fill(0);
        for (let i = fe; i < n; i++) wasEssential[order[i]] = 1;
      }
      if (fe === n) {
        // Skipped: the clauses essential before keep cutting the next window in pass 1
        // (at their leading fields' edges where they narrow).
        if (anyNarrowing) narrow(minScore, windowMin, windowMax);
        windowMin = windowMax;
        continue;
      }
      if (filtered) {
        wasEssential.fill(0);
        for (let i = fe; i < n; i++) wasEssential[order[i]] = 1;
      }
    }
    if (boundsValid && anyNarrowing) narrow(minScore, windowMin, windowMax);
    let lead = -1;
    let nOthers = 0;
    /** The k-th score the required clauses were last picked at (they only change as it grows). */
    let reqMin = minScore;
    if (boundsValid && dormant === 0) {
      if (!filtered) lead = pickLead(clauses, bound, minScore);
      else {
        const m = pickRequired(clauses, bound, minScore, req);
        if (m > 0) {
          lead = req[0];
          nOthers = leapfrogged(clauses, req, m, lead, others);
        }
      }
    }
    if (bulk) {
      let essentialCost = 0;
      for (let i = fe; i < n; i++) essentialCost += clauses[order[i]].cost;
      if (essentialCost * BULK_DENSITY >= t.maxDoc) {
        // Dense essential clauses: they walk the window term at a time (bulk-window.ts).
        for (let i = fe; i < n; i++) {
          const c = clauses[order[i]];
          if (c.doc < windowMin) c.advance(windowMin);
        }
        scoreWindowBulk(
          t,
          top,
          st,
          windowMin,
          windowMax,
          order,
          fe,
          prefix,
          dormant,
          alts,
          (columns ??= windowColumns(n)),
        );
        windowMin = windowMax;
        continue;
      }
    }
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
      if (nOthers > 0) {
        doc = leapfrog(clauses, lead, others, nOthers, bits, doc, windowMax);
        if (doc >= windowMax) break;
      }
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
        // With a lead (whose docs the essential clauses were moved to), only while
        // the bound passes over at least half the docs it is asked about.
        let ub =
          lead >= 0 && (!filtered || (leadBounds >= 32 && leadPassed * 2 < leadBounds))
            ? Infinity
            : prefix[fe] + dormant;
        for (let i = fe; i < n && ub !== Infinity; i++) {
          const c = clauses[order[i]];
          if (c.doc === doc) ub += c.docBound !== undefined ? c.docBound() : Infinity;
        }
        const passed = ub * SAFE <= floor(top, st);
        if (lead >= 0 && ub !== Infinity) {
          leadBounds++;
          if (passed) leadPassed++;
        }
        if (passed) {
          for (let i = fe; i < n; i++) {
            const c = clauses[order[i]];
            if (c.doc !== doc) continue;
            if (bits !== null) advanceMatching(c, doc + 1, bits);
            else c.nextDoc();
          }
          if (lead >= 0 && clauses[lead].doc === doc) {
            if (bits !== null) advanceMatching(clauses[lead], doc + 1, bits);
            else clauses[lead].nextDoc();
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
              // Without a filter only a first lead is looked for; with one, the leapfrogged clauses grow too.
              if (!filtered) {
                if (lead < 0) {
                  lead = pickLead(clauses, bound, min);
                  if (lead >= 0) {
                    st.exact = false;
                    if (clauses[lead].doc <= doc) clauses[lead].advance(doc + 1);
                  }
                }
              } else if (min !== reqMin) {
                reqMin = min;
                const m = pickRequired(clauses, bound, min, req);
                if (m > 0) {
                  if (lead < 0) {
                    lead = req[0];
                    st.exact = false;
                    if (clauses[lead].doc <= doc) clauses[lead].advance(doc + 1);
                  }
                  nOthers = leapfrogged(clauses, req, m, lead, others);
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
