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
import { advanceMatching } from '../scorer/scorers.ts';
import type { MaxScorer, Scorer } from '../scorer/scorers.ts';
import { CombinedScorer } from '../scorer/combined-scorer.ts';
import { scoreWindowBulk, windowColumns } from './bulk-window.ts';
import type { WindowColumns } from './bulk-window.ts';
import { floor as floorOf, isExcluded as isExcludedAt, SAFE as SAFE_MARGIN } from './segment-task.ts';
import type { CollectState, SegmentTask } from './segment-task.ts';
import type { TopDocs } from './top-docs.ts';
import { WINDOWS_PER_CHECK } from '../query/budget.ts';
import { leapfrog as leapfrogImported, leapfrogged, pickLead, pickRequired } from './max-score-leads.ts';
import { SleepingSubs } from './max-score-subs.ts';

/**
 * Module-local bindings of the shared helpers: the hot loop below reads these
 * on every doc, and an imported binding costs a load per use (about 1-2% of
 * an unfiltered query's CPU in a same-process A/B).
 */
const SAFE = SAFE_MARGIN;
const floor = floorOf;
const isExcluded = isExcludedAt;
const leapfrog = leapfrogImported;

const NONE = new Int32Array(0);
/** Bulk scoring needs the clauses' postings to hold at least 1/BULK_DENSITY of the segment's doc ids. */
const BULK_DENSITY = 16;

export function scoreMaxScore(t: SegmentTask, top: TopDocs, st: CollectState): void {
  new MaxScoreRun(t, top, st).run();
}

/** What openWindow decided for the window [windowMin, windowMax). */
const enum Window {
  /** Every clause is exhausted: the segment is done. */
  Done,
  /** No doc of the window can compete: go on at windowMax. */
  Skip,
  /** Enumerate the window's docs. */
  Score,
}

/** A partial score that cannot make the top k (see completeScore). */
const NOT_COMPETITIVE = -Infinity;

/**
 * One segment's MaxScore: the clauses' partition and bounds, the window, the
 * lead, and the steps run per window (openWindow, pickLeads, scoreBulk,
 * scoreDocs) and per doc (skipRejected; the doc's bound, inline in the
 * scoreDocs loop, which passes over it; scoreCandidate: scoreEssential,
 * completeScore, offer, raiseFloor).
 */
class MaxScoreRun {
  private readonly clauses: Scorer[];
  private readonly n: number;
  /** Clause indexes, ascending bound; order[0..fe) are non-essential. */
  private readonly order: Int32Array;
  private readonly bound: Float64Array;
  /** prefix[i]: sum of the bounds of order[0..i). */
  private readonly prefix: Float64Array;
  /** Score of clause j at doc stamp[j]. */
  private readonly s: Float64Array;
  private readonly stamp: Int32Array;
  private readonly bits: Uint32Array | null;
  /**
   * Under a filter bitset (few accepted docs, so bounds per doc and skipping pay
   * off): required clauses other than the lead are leapfrogged, docs are bounded
   * per doc under a lead, a skipped window keeps its essential clauses, and
   * clauses over several fields may narrow. Without one, none of that: the
   * plain MaxScore path, which is cheaper there.
   */
  private readonly filtered: boolean;
  /**
   * Without a filter bitset, a window whose essential clauses are dense (their
   * postings hold at least 1/BULK_DENSITY of the segment's ids, so walking the
   * window's ids costs little next to them) is scored term at a time
   * (bulk-window.ts): cheaper per doc than merging and bounding doc by doc
   * where pruning leaves most docs to look at. Under a filter bitset the
   * essential clauses skip the rejected docs instead.
   */
  private readonly bulk: boolean;
  private columns: WindowColumns | null = null;
  /** First essential position in `order`. */
  private fe = 0;
  private windowMin = 0;
  private windowMax = 0;
  /** Essential in the previous window's partition (all, at first). */
  private readonly wasEssential: Uint8Array;
  /** Clauses of alternatives (MaxScorer) by index, null for others; their subs may sleep per window. */
  private readonly alts: (MaxScorer | null)[];
  private readonly anyAlts: boolean;
  private readonly subs: SleepingSubs;
  /** Bounds of clause j were computed for this window (its subs' bounds may be used). */
  private readonly fresh: Uint8Array;
  /**
   * The lead: a clause every competitive doc of the window matches (-1: none),
   * whose docs the essential clauses jump to (kept once chosen in a window: it
   * stays required as minScore grows). Under a filter, `others` (the first
   * nOthers entries) are the other required clauses leapfrogged with it.
   */
  private lead = -1;
  private nOthers = 0;
  /** The k-th score the required clauses were last picked at (they only change as it grows). */
  private reqMin = 0;
  private readonly req: Int32Array;
  private readonly others: Int32Array;
  /** Clauses that can narrow the fields leading their enumeration per window (CombinedScorer.restrict). */
  private readonly narrowing: (CombinedScorer | null)[] | null;
  private readonly anyNarrowing: boolean;
  private narrowed = false;
  /** The window's bounds were taken (false while nothing is pruned yet). */
  private boundsValid = false;
  /** Sum of the bounds of the subs asleep in this window (0: none; then leads and partition updates are allowed). */
  private dormant = 0;
  /** Docs bounded with docBound under a lead in this segment, and how many of them it passed over. */
  private leadBounds = 0;
  private leadPassed = 0;
  /** Window boundaries until the budget is asked again (the first one is asked: seeding may have spent it). */
  private untilCheck = 1;

  constructor(
    private readonly t: SegmentTask,
    private readonly top: TopDocs,
    private readonly st: CollectState,
  ) {
    const clauses = t.scoring;
    const n = clauses.length;
    this.clauses = clauses;
    this.n = n;
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    this.bound = new Float64Array(n);
    this.prefix = new Float64Array(n + 1);
    this.s = new Float64Array(n);
    this.stamp = new Int32Array(n).fill(-1);
    const bits = t.bits ?? null;
    this.bits = bits;
    this.filtered = bits !== null;
    let totalCost = 0;
    for (let j = 0; j < n; j++) totalCost += clauses[j].cost;
    this.bulk = !this.filtered && totalCost * BULK_DENSITY >= t.maxDoc;
    // Filter-tightened window bounds only pay off where a window can be skipped on one clause's bound.
    if (bits !== null && n === 1) clauses[0].useFilter?.(bits);
    this.wasEssential = new Uint8Array(n).fill(1);
    this.subs = new SleepingSubs(clauses);
    this.alts = this.subs.alts;
    this.anyAlts = this.subs.any;
    this.fresh = new Uint8Array(n);
    this.req = this.filtered && n <= 16 ? new Int32Array(n) : NONE;
    this.others = this.filtered && n <= 16 ? new Int32Array(n) : NONE;
    this.narrowing = this.filtered && n <= 16 ? clauses.map((c) => (c instanceof CombinedScorer ? c : null)) : null;
    this.anyNarrowing = this.narrowing !== null && this.narrowing.some((c) => c !== null);
  }

  /** Window after window until the clauses are exhausted or the budget is spent. */
  run(): void {
    while (this.windowMin < NO_MORE_DOCS) {
      // A window boundary: every doc below windowMin is scored or pruned exactly.
      if (this.budgetSpent()) return;
      const minScore = floor(this.top, this.st);
      const w = this.openWindow(minScore);
      if (w === Window.Done) return;
      if (w === Window.Skip) {
        this.windowMin = this.windowMax;
        continue;
      }
      if (this.boundsValid && this.anyNarrowing) this.narrow(minScore);
      this.pickLeads(minScore);
      if (!this.bulk || !this.scoreBulk()) this.scoreDocs();
      this.windowMin = this.windowMax;
    }
  }

  /** True (and the count inexact) when the budget, asked every WINDOWS_PER_CHECK windows, is spent. */
  private budgetSpent(): boolean {
    const budget = this.st.budget ?? null;
    if (budget === null || --this.untilCheck !== 0) return false;
    this.untilCheck = WINDOWS_PER_CHECK;
    if (!budget.exhausted()) return false;
    this.st.exact = false;
    return true;
  }

  /** Cut the window at windowMin, bound its clauses and partition them at minScore. */
  private openWindow(minScore: number): Window {
    this.boundsValid = false;
    this.dormant = 0;
    this.fe = 0;
    if (minScore === -Infinity) {
      // No pruning yet: windows at the nearest block edge of any clause.
      const windowMax = this.windowEdge(false);
      if (windowMax < 0) return Window.Done;
      this.windowMax = this.atLeastMinimalWindow(windowMax);
      this.wasEssential.fill(1);
      return Window.Score;
    }
    if (!this.cutWindow()) return Window.Done;
    this.boundWindow(minScore);
    if (this.anyAlts) {
      const { clauses, bound, fresh, order, prefix } = this;
      this.dormant = this.subs.sleep(clauses, bound, fresh, order, prefix, this.fe, this.windowMax, minScore);
      this.fe = this.subs.fe;
      if (this.dormant > 0) this.st.exact = false;
    }
    this.boundsValid = true;
    if (this.fe > 0) this.st.exact = false;
    if (!this.filtered) this.markEssential();
    if (this.fe === this.n) {
      // Skipped: the clauses essential before keep cutting the next window in pass 1
      // (at their leading fields' edges where they narrow).
      if (this.anyNarrowing) this.narrow(minScore);
      return Window.Skip;
    }
    if (this.filtered) this.markEssential();
    return Window.Score;
  }

  /** The window's end moved up to at least 32 ids per clause past windowMin. */
  private atLeastMinimalWindow(windowMax: number): number {
    const least = this.windowMin + 32 * this.n;
    return windowMax < least ? Math.min(NO_MORE_DOCS, least) : windowMax;
  }

  /**
   * Pass 1 (as Lucene): window from the clauses essential so far, whose blocks
   * bound it; the others are bounded by their global maximum (cursors untouched).
   * Subs asleep in the previous window do not cut this one (they were past
   * its bounds); then they wake: sleeping is decided per window. False when
   * every clause is exhausted.
   */
  private cutWindow(): boolean {
    let windowMax = this.windowEdge(true);
    if (this.subs.wakeAll() && windowMax < 0) windowMax = this.windowEdge(true);
    if (this.narrowed) {
      // Narrowed clauses cut the window at their leading fields' block edges only
      // (the lagging fields have not passed windowMin); now every field leads
      // again, and the narrowing is decided anew from this window's bounds. When
      // a clause's leading fields are exhausted, its other fields cut the window.
      let again = windowMax < 0;
      for (let j = 0; j < this.n; j++) {
        const c = this.narrowing![j];
        if (c === null) continue;
        if (c.doc === NO_MORE_DOCS) again = true;
        c.release();
      }
      this.narrowed = false;
      if (again) windowMax = this.windowEdge(true);
    }
    if (windowMax < 0) return false;
    this.windowMax = windowMax;
    this.catchUpSparse();
    return true;
  }

  /**
   * A sparse clause left behind (its block reaches past the window) moves to
   * the window: one block decode for several windows, and a bound of 0 when
   * it has no doc there.
   */
  private catchUpSparse(): void {
    const { clauses, wasEssential, windowMin, windowMax } = this;
    for (let j = 0; j < this.n; j++) {
      const c = clauses[j];
      if (wasEssential[j] === 0 && c.doc < windowMin && c.shallowEnd(windowMin) >= windowMax - 1) c.advance(windowMin);
    }
  }

  /**
   * Bound every clause over the window and partition them at minScore. If a
   * clause bounded by its global maximum turns essential, pass 2 cuts the
   * window at every clause's nearest block edge and bounds all clauses per
   * block again.
   */
  private boundWindow(minScore: number): void {
    const { clauses, bound, fresh, wasEssential, windowMin, n } = this;
    // One clause: any bound at most minScore skips the window, however loose.
    const floorArg = n === 1 ? minScore : Infinity;
    let windowMax = this.windowMax;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      fresh[j] = wasEssential[j];
      bound[j] =
        c.doc >= windowMax ? 0 : wasEssential[j] ? c.maxScoreIn(windowMin, windowMax - 1, floorArg) : c.maxScore;
    }
    this.partition(minScore);
    let grew = false;
    for (let i = this.fe; i < n; i++) if (wasEssential[this.order[i]] === 0) grew = true;
    if (!grew) return;
    // Pass 2. A clause whose block cursor moved past windowMin in pass 1 (over
    // several blocks of a lagging field) bounds the range by its global maximum.
    windowMax = this.atLeastMinimalWindow(this.windowEdge(false));
    this.windowMax = windowMax;
    for (let j = 0; j < n; j++) {
      const c = clauses[j];
      fresh[j] = 1;
      bound[j] = c.doc >= windowMax ? 0 : c.maxScoreIn(windowMin, windowMax - 1, floorArg);
    }
    this.partition(minScore);
  }

  /** wasEssential := the current partition's essential clauses. */
  private markEssential(): void {
    this.wasEssential.fill(0);
    for (let i = this.fe; i < this.n; i++) this.wasEssential[this.order[i]] = 1;
  }

  /**
   * Window end: the nearest block edge among the given clauses (at least 32 ids
   * per clause), or -1 when every clause is exhausted. Block cursors only move
   * forward, so a window never shrinks below what earlier bounds covered.
   */
  private windowEdge(onlyEssential: boolean): number {
    const { clauses, wasEssential, windowMin, n } = this;
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
  }

  /** Clauses sorted by ascending bound; fe = the longest prefix whose bounds sum to at most minScore. */
  private partition(minScore: number): void {
    const { order, bound, prefix, n } = this;
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
    let fe = 0;
    while (fe < n && prefix[fe + 1] * SAFE <= minScore) fe++;
    this.fe = fe;
  }

  /**
   * A clause of one term over several fields, essential (wasEssential) in the
   * window: when the window's docs without the term in some fields cannot
   * compete, only those fields lead (until the next window's start).
   */
  private narrow(minScore: number): void {
    const { bound, wasEssential, n } = this;
    for (let j = 0; j < n; j++) {
      const c = this.narrowing![j];
      if (c === null || wasEssential[j] === 0) continue;
      let others = 0;
      for (let k = 0; k < n; k++) if (k !== j) others += bound[k];
      if (c.restrict(this.windowMin, this.windowMax - 1, minScore, others)) {
        this.narrowed = true;
        this.st.exact = false;
      }
    }
  }

  /** The window's lead and, under a filter, the required clauses leapfrogged with it. */
  private pickLeads(minScore: number): void {
    this.lead = -1;
    this.nOthers = 0;
    this.reqMin = minScore;
    if (!this.boundsValid || this.dormant !== 0) return;
    if (!this.filtered) {
      this.lead = pickLead(this.clauses, this.bound, minScore);
      return;
    }
    const m = pickRequired(this.clauses, this.bound, minScore, this.req);
    if (m > 0) {
      this.lead = this.req[0];
      this.nOthers = leapfrogged(this.clauses, this.req, m, this.lead, this.others);
    }
  }

  /** Dense essential clauses walk the window term at a time (bulk-window.ts); false when they are not dense. */
  private scoreBulk(): boolean {
    const { clauses, order, fe, n } = this;
    let essentialCost = 0;
    for (let i = fe; i < n; i++) essentialCost += clauses[order[i]].cost;
    if (essentialCost * BULK_DENSITY < this.t.maxDoc) return false;
    for (let i = fe; i < n; i++) {
      const c = clauses[order[i]];
      if (c.doc < this.windowMin) c.advance(this.windowMin);
    }
    scoreWindowBulk(
      this.t,
      this.top,
      this.st,
      this.windowMin,
      this.windowMax,
      order,
      fe,
      this.prefix,
      this.dormant,
      this.alts,
      (this.columns ??= windowColumns(n)),
    );
    return true;
  }

  /**
   * Doc at a time over the window: each candidate skipped, passed over on its
   * bound, or scored and offered. The per-doc bound is written inline: this loop
   * is the hottest code of a search.
   */
  private scoreDocs(): void {
    const { clauses, order, n, windowMin, windowMax, t, st, top, prefix, bits, filtered } = this;
    const { accept, excluded } = t;
    // lead, nOthers and fe change only in raiseFloor (through scoreCandidate): kept in locals here.
    let lead = this.lead;
    let fe = this.fe;
    if (lead >= 0) this.st.exact = false;
    for (let i = fe; i < n; i++) {
      const c = clauses[order[i]];
      if (c.doc < windowMin) c.advance(windowMin);
    }
    if (lead >= 0 && clauses[lead].doc < windowMin) clauses[lead].advance(windowMin);
    let doc = this.nextCandidate(lead, fe);
    while (doc < windowMax) {
      if (this.nOthers > 0) {
        doc = leapfrog(clauses, lead, this.others, this.nOthers, this.bits, doc, windowMax);
        if (doc >= windowMax) break;
      }
      if (lead >= 0) {
        // Only docs of the required lead can compete: essential clauses jump to them.
        for (let i = fe; i < n; i++) {
          const c = clauses[order[i]];
          if (c.doc < doc) c.advance(doc);
        }
      }
      if (!accept(doc) || (excluded.length > 0 && isExcluded(excluded, doc))) this.skipRejected(doc);
      else {
        st.count++;
        // Bound of this doc from the essential clauses' per-doc bounds (no freqs
        // decoded) and the non-essential bounds: if it cannot compete, pass over it.
        // With a lead (whose docs the essential clauses were moved to), only while
        // the bound passes over at least half the docs it is asked about.
        let ub =
          lead >= 0 && (!filtered || (this.leadBounds >= 32 && this.leadPassed * 2 < this.leadBounds))
            ? Infinity
            : prefix[fe] + this.dormant;
        for (let i = fe; i < n && ub !== Infinity; i++) {
          const c = clauses[order[i]];
          if (c.doc === doc) ub += c.docBound !== undefined ? c.docBound() : Infinity;
        }
        const passed = ub * SAFE <= floor(top, st);
        if (lead >= 0 && ub !== Infinity) {
          this.leadBounds++;
          if (passed) this.leadPassed++;
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
        } else if (this.scoreCandidate(doc)) break;
        lead = this.lead;
        fe = this.fe;
      }
      doc = this.nextCandidate(lead, fe);
    }
  }

  /** The next doc to look at: the lead's, else the least of the essential clauses'. */
  private nextCandidate(lead: number, fe: number): number {
    const { clauses, order, n } = this;
    if (lead >= 0) return clauses[lead].doc;
    let doc = NO_MORE_DOCS;
    for (let i = fe; i < n; i++) if (clauses[order[i]].doc < doc) doc = clauses[order[i]].doc;
    return doc;
  }

  /**
   * `doc` scored in full while it can still compete (scoreEssential, then
   * completeScore) and offered; the lead moves past it. True when the raised
   * k-th score leaves no clause essential (the window is done).
   */
  private scoreCandidate(doc: number): boolean {
    const partial = this.completeScore(doc, this.scoreEssential(doc));
    const lead = this.lead;
    if (lead >= 0 && this.clauses[lead].doc === doc) {
      if (this.bits !== null) advanceMatching(this.clauses[lead], doc + 1, this.bits);
      else this.clauses[lead].nextDoc();
    }
    if (partial === NOT_COMPETITIVE) return false;
    this.offer(doc);
    return this.raiseFloor(doc);
  }

  /** The essential clauses and the lead move past `doc`, which the filter or an excluded clause rejects. */
  private skipRejected(doc: number): void {
    const { clauses, order, n, lead } = this;
    const bits = this.bits;
    if (bits !== null) {
      for (let i = this.fe; i < n; i++) {
        const c = clauses[order[i]];
        if (c.doc <= doc) advanceMatching(c, doc + 1, bits);
      }
      if (lead >= 0 && clauses[lead].doc <= doc) advanceMatching(clauses[lead], doc + 1, bits);
      return;
    }
    const nextCandidate = this.t.nextCandidate;
    const next = nextCandidate !== null ? nextCandidate(doc + 1) : doc + 1;
    for (let i = this.fe; i < n; i++) {
      const c = clauses[order[i]];
      if (c.doc < next) {
        if (c.doc === doc && next === doc + 1) c.nextDoc();
        else c.advance(next);
      }
    }
    if (lead >= 0 && clauses[lead].doc < next) clauses[lead].advance(next);
  }

  /** The sum of the essential clauses' scores at `doc` (stamped; those on it move past it), sleeping subs included. */
  private scoreEssential(doc: number): number {
    const { clauses, order, n, s, stamp, bits, dormant, alts } = this;
    let partial = 0;
    for (let i = this.fe; i < n; i++) {
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
    return partial;
  }

  /**
   * `partial` completed by the non-essential clauses, highest bound first, while
   * the doc can still compete; NOT_COMPETITIVE once it cannot.
   */
  private completeScore(doc: number, partial: number): number {
    const fe = this.fe;
    if (fe === 0) return partial;
    const { clauses, order, prefix, s, stamp } = this;
    const min = floor(this.top, this.st);
    for (let i = fe - 1; i >= 0; i--) {
      if ((partial + prefix[i + 1]) * SAFE <= min) return NOT_COMPETITIVE;
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
    return partial;
  }

  /** Offer `doc` with its clauses' scores summed in canonical order. */
  private offer(doc: number): void {
    const { s, stamp, n } = this;
    let total = 0;
    for (let j = 0; j < n; j++) if (stamp[j] === doc) total += s[j];
    this.top.offer(total, this.t.docBase + doc);
  }

  /**
   * After an offer raised the k-th score: more clauses turn non-essential, and
   * a lead (with a filter: more leapfrogged clauses) may be found. True when no
   * clause is essential any more (the window is done).
   */
  private raiseFloor(doc: number): boolean {
    if (!this.boundsValid || this.dormant !== 0) return false;
    const { clauses, bound, prefix, n, st } = this;
    const min = floor(this.top, st);
    while (this.fe < n && prefix[this.fe + 1] * SAFE <= min) {
      this.fe++;
      st.exact = false;
    }
    if (this.fe === n) return true;
    // Without a filter only a first lead is looked for; with one, the leapfrogged clauses grow too.
    if (!this.filtered) {
      if (this.lead < 0) {
        this.lead = pickLead(clauses, bound, min);
        if (this.lead >= 0) {
          st.exact = false;
          if (clauses[this.lead].doc <= doc) clauses[this.lead].advance(doc + 1);
        }
      }
    } else if (min !== this.reqMin) {
      this.reqMin = min;
      const m = pickRequired(clauses, bound, min, this.req);
      if (m > 0) {
        if (this.lead < 0) {
          this.lead = this.req[0];
          st.exact = false;
          if (clauses[this.lead].doc <= doc) clauses[this.lead].advance(doc + 1);
        }
        this.nOthers = leapfrogged(clauses, this.req, m, this.lead, this.others);
      }
    }
    return false;
  }
}
