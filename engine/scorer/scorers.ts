/**
 * Scorers: doc-at-a-time iterators that also score and give upper bounds for
 * dynamic pruning. A Scorer is positioned on `doc` (-1 before the first move,
 * NO_MORE_DOCS at the end), moves only forward, and knows
 *  - `maxScore`: a bound on every score it can return;
 *  - `shallowEnd(t)`: the last doc of the postings block covering t (window edges);
 *  - `maxScoreIn(lo, hi)`: a bound on scores of docs within [lo, hi]; `lo` must
 *    not decrease between calls (the block cursor only moves forward), and the
 *    scorer must not have skipped unconsumed docs of [lo, hi] (so a scorer
 *    already positioned past `hi` bounds the range by 0). With `floor`, a
 *    scorer may return any valid bound that is at most `floor` without
 *    tightening it further (the caller only needs to know it cannot compete);
 *  - `useFilter(bits)` (optional): from then on only docs the filter bitset
 *    accepts are collected, so bounds may hold for those docs only.
 *
 *  TermScorer      one (field, term): BM25 from freq and field length, impacts for bounds.
 *  MaxScorer       union of a word's alternatives (or of a required item's fields); scores the best.
 *  CombinedScorer  (combined-scorer.ts) one term over all text fields, BM25F.
 *  PhraseScorer    (phrase-scorer.ts) exact phrase in one field via positions.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import type { PostingsIterator, SegmentReader } from '../segment/types.ts';
import { bm25Score, bm25UpperBound } from '../similarity/bm25.ts';
import { NORM_TABLE } from '../similarity/norms.ts';
import type { TermWeight } from '../similarity/bm25.ts';
import { acquireScratch, releaseScratch, scoreRange } from './range-scoring.ts';
import type { ScoreTable } from './score-table.ts';

export interface Scorer {
  doc: number;
  readonly cost: number;
  readonly maxScore: number;
  nextDoc(): number;
  advance(target: number): number;
  score(): number;
  shallowEnd(target: number): number;
  maxScoreIn(lo: number, hi: number, floor?: number): number;
  /** Optional: bounds need only hold for docs the segment's filter bitset accepts (bit d of word d >>> 5). */
  useFilter?(bits: Uint32Array): void;
  /**
   * Optional fast path under a filter bitset: move to the first doc >= target
   * whose bit is set in `bits` (`target` may be <= doc; then only a doc the
   * filter rejects moves). See advanceMatching below for the generic form.
   */
  advanceMatching?(target: number, bits: Uint32Array): number;
  /** Optional: a bound on score() for the current doc, cheaper than scoring it (e.g. without decoding freqs). */
  docBound?(): number;
  /**
   * Optional bulk form of score()/nextDoc() (range-scoring.ts scoreRange has the
   * generic one): for each doc d from the current one up to hi (exclusive), adds
   * its score to out[d - lo] (with `max`: raises out[d - lo] to it) and sets
   * marks[d - lo] = 1; ends on the first doc >= hi. Scores are bit-identical to
   * score()'s. Requires lo <= doc and hi - lo <= WINDOW_IDS.
   */
  scoreRange?(lo: number, hi: number, out: Float64Array, marks: Uint8Array, max: boolean): void;
  /**
   * Optional term-at-a-time form of nextDoc()/score() (collector/sparse-exhaustive.ts): every doc after
   * the current one (only those set in `bits`, when given), in doc order, goes to
   * table.add(doc, score) with the score score() gives it; ends on NO_MORE_DOCS.
   */
  scoreRest?(bits: Uint32Array | null, table: ScoreTable): void;
}

/** True when doc `d` (< NO_MORE_DOCS) has its bit set in the filter bitset. */
export function bitSet(bits: Uint32Array, d: number): boolean {
  return ((bits[d >>> 5] >>> (d & 31)) & 1) !== 0;
}

/** `s` moved to its first doc >= target that the filter bitset accepts (NO_MORE_DOCS when none). */
export function advanceMatching(s: Scorer, target: number, bits: Uint32Array): number {
  if (s.advanceMatching !== undefined) return s.advanceMatching(target, bits);
  let d = s.doc < target ? s.advance(target) : s.doc;
  while (d !== NO_MORE_DOCS && !bitSet(bits, d)) d = s.nextDoc();
  return d;
}

/** A postings iterator moved likewise (block iterators scan their decoded blocks). */
export function advanceIterator(it: PostingsIterator, target: number, bits: Uint32Array): number {
  const fast = (it as { advanceMatching?: (t: number, b: Uint32Array) => number }).advanceMatching;
  if (fast !== undefined) return fast.call(it, target, bits);
  let d = it.docID() < target ? it.advance(target) : it.docID();
  while (d !== NO_MORE_DOCS && !bitSet(bits, d)) d = it.nextDoc();
  return d;
}

/**
 * Per (weight, field) table of the length part of the BM25 denominator for
 * each of the 256 norm bytes, shared by the scorers of one query: it holds
 * exactly `kConst + kLen * NORM_TABLE[b]`, so scores equal bm25Score's bit for bit.
 */
export function lengthTable(w: TermWeight): Float64Array {
  const t = new Float64Array(256);
  for (let b = 0; b < 256; b++) t[b] = w.kConst + w.kLen * NORM_TABLE[b];
  return t;
}

export class TermScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private blockEnd = -1;
  private blockMax = 0;
  /** Target of the block cursor's last move: its block holds every doc of the term in [from, blockEnd]. */
  private from = -1;
  private readonly weight: number;
  private readonly norms: Uint8Array | null;

  constructor(
    private readonly it: PostingsIterator,
    private readonly w: TermWeight,
    private readonly reader: SegmentReader,
    private readonly field: string,
    private readonly lengths: Float64Array | null = null,
  ) {
    this.cost = it.cost();
    // freq/(freq + K) < 1 for K > 0; with K == 0 (k1 == 0 or b == 1 and empty field) it is exactly 1.
    this.maxScore = w.weight;
    this.weight = w.weight;
    this.norms = lengths && reader.norms ? reader.norms(field) : null;
  }

  nextDoc(): number {
    return (this.doc = this.it.nextDoc());
  }

  advance(target: number): number {
    return (this.doc = this.it.advance(target));
  }

  advanceMatching(target: number, bits: Uint32Array): number {
    return (this.doc = advanceIterator(this.it, target, bits));
  }

  score(): number {
    const f = this.it.freq();
    if (this.norms !== null) return (this.weight * f) / (f + this.lengths![this.norms[this.doc]]);
    return bm25Score(this.w, f, this.reader.fieldLength(this.field, this.doc));
  }

  scoreRange(lo: number, hi: number, out: Float64Array, marks: Uint8Array, max: boolean): void {
    const it = this.it;
    const norms = this.norms;
    const lengths = this.lengths;
    const weight = this.weight;
    for (let d = this.doc; d < hi; d = it.nextDoc()) {
      const f = it.freq();
      const v =
        norms !== null
          ? (weight * f) / (f + lengths![norms[d]])
          : bm25Score(this.w, f, this.reader.fieldLength(this.field, d));
      const i = d - lo;
      if (max) {
        if (v > out[i]) out[i] = v;
      } else out[i] += v;
      marks[i] = 1;
    }
    this.doc = it.docID();
  }

  shallowEnd(target: number): number {
    if (this.blockEnd < target) {
      this.blockEnd = this.it.advanceShallow(target);
      this.blockMax = bm25UpperBound(this.w, this.it.blockImpacts());
      this.from = target;
    }
    return this.blockEnd;
  }

  maxScoreIn(lo: number, hi: number): number {
    if (this.doc > hi) return 0;
    // The block cursor has moved past `lo` while docs from `lo` on remain: the blocks it
    // passed are gone (a window cut shorter after being bounded), so the global bound.
    if (this.from > lo && this.from > this.doc) return this.maxScore;
    let end = this.shallowEnd(lo);
    let max = this.blockMax;
    while (end < hi && end !== NO_MORE_DOCS) {
      end = this.shallowEnd(end + 1);
      if (this.blockMax > max) max = this.blockMax;
    }
    return max;
  }
}

/** Relative safety margin on bounds against float rounding (as collector/top-k.ts). */
const SAFE = 1 + 1e-9;

/**
 * Disjunction of scorers of interchangeable terms; the score of a doc is the best sub-score.
 *
 * Subs can be put to sleep for one window by the top-k collector (`sleep`):
 * a dormant sub no longer leads the enumeration (nextDoc, advance and
 * advanceMatching move the active subs only, `doc` is theirs) but is still
 * consulted when a doc is scored (`score`, `scoreAt`), so scores stay exact.
 * `wake` makes every sub active again.
 */
export class MaxScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private readonly dormant: Uint8Array;
  private anyDormant = false;

  constructor(private readonly subs: Scorer[]) {
    let cost = 0;
    let max = 0;
    for (const s of subs) {
      cost += s.cost;
      if (s.maxScore > max) max = s.maxScore;
    }
    this.cost = cost;
    this.maxScore = max;
    this.dormant = new Uint8Array(subs.length);
    this.subBounds = new Float64Array(subs.length).fill(-1);
  }

  /** Range of the last maxScoreIn and the sub bounds found for it (-1: no docs there, or not computed). */
  private lastLo = -1;
  private lastHi = -1;
  private readonly subBounds: Float64Array;

  /** Number of subs. */
  get size(): number {
    return this.subs.length;
  }

  /** Bound of sub `i` over the range of the last maxScoreIn (< 0: it has no docs there). */
  subBound(i: number): number {
    return this.subBounds[i];
  }

  /** Cost (postings length) of sub `i`. */
  subCost(i: number): number {
    return this.subs[i].cost;
  }

  /** Sub `i` stops leading the enumeration until `wake` (call `settle` after the last one). */
  sleep(i: number): void {
    this.dormant[i] = 1;
    this.anyDormant = true;
  }

  /** Every sub active again; `doc` is the least of all subs'. */
  wake(): void {
    if (!this.anyDormant) return;
    this.dormant.fill(0);
    this.anyDormant = false;
    this.settle();
  }

  get sleeping(): boolean {
    return this.anyDormant;
  }

  settle(): number {
    let min = NO_MORE_DOCS;
    const subs = this.subs;
    if (!this.anyDormant) {
      for (let i = 0; i < subs.length; i++) if (subs[i].doc < min) min = subs[i].doc;
    } else {
      for (let i = 0; i < subs.length; i++) if (this.dormant[i] === 0 && subs[i].doc < min) min = subs[i].doc;
    }
    return (this.doc = min);
  }

  nextDoc(): number {
    const cur = this.doc;
    const subs = this.subs;
    const any = this.anyDormant;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i];
      if (s.doc <= cur && (!any || this.dormant[i] === 0)) s.nextDoc();
    }
    return this.settle();
  }

  advance(target: number): number {
    const subs = this.subs;
    const any = this.anyDormant;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i];
      if (s.doc < target && (!any || this.dormant[i] === 0)) s.advance(target);
    }
    return this.settle();
  }

  advanceMatching(target: number, bits: Uint32Array): number {
    const subs = this.subs;
    const any = this.anyDormant;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i];
      if (any && this.dormant[i] !== 0) continue;
      if (s.doc < target || (s.doc !== NO_MORE_DOCS && !bitSet(bits, s.doc))) advanceMatching(s, target, bits);
    }
    return this.settle();
  }

  score(): number {
    let best = 0;
    const any = this.anyDormant;
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc === this.doc && (!any || this.dormant[i] === 0)) {
        const v = s.score();
        if (v > best) best = v;
      }
    }
    return this.anyDormant ? this.dormantMax(this.doc, best) : best;
  }

  /**
   * Bulk scoring (Scorer.scoreRange) of the active subs only: while subs sleep,
   * each doc's value is the best of the active subs, and the caller completes
   * it with withDormant(doc, value) in doc order (as score() = withDormant(doc,
   * best of the active subs)).
   */
  scoreRange(lo: number, hi: number, out: Float64Array, marks: Uint8Array, max: boolean): void {
    // best of the subs per doc, from 0 as score() takes it
    const { values, marks: seen } = acquireScratch();
    try {
      const any = this.anyDormant;
      for (let k = 0; k < this.subs.length; k++) {
        const s = this.subs[k];
        if (s.doc < hi && (!any || this.dormant[k] === 0)) scoreRange(s, lo, hi, values, seen, true);
      }
      const width = hi - lo;
      for (let i = 0; i < width; i++) {
        if (seen[i] === 0) continue;
        const v = values[i];
        values[i] = 0;
        seen[i] = 0;
        if (max) {
          if (v > out[i]) out[i] = v;
        } else out[i] += v;
        marks[i] = 1;
      }
    } catch (err) {
      values.fill(0);
      seen.fill(0);
      throw err;
    } finally {
      releaseScratch();
    }
    this.settle();
  }

  /**
   * max(best, the dormant subs' scores on `doc`) (best: the active subs' best,
   * -1 when none matches); docs must be asked in increasing order.
   */
  withDormant(doc: number, best: number): number {
    return this.anyDormant ? this.dormantMax(doc, best) : best;
  }

  /**
   * Score of `doc` when the active subs are past it (a doc another clause
   * found): the best dormant sub on it, or -1 when none matches it.
   */
  scoreAt(doc: number): number {
    return this.anyDormant ? this.dormantMax(doc, -1) : -1;
  }

  /** max(best, dormant subs' scores on doc); a sub whose window bound cannot beat `best` is not moved. */
  private dormantMax(doc: number, best: number): number {
    for (let i = 0; i < this.subs.length; i++) {
      if (this.dormant[i] === 0) continue;
      const s = this.subs[i];
      if (s.doc > doc || (best >= 0 && this.subBounds[i] <= best)) continue;
      if (s.doc < doc) s.advance(doc);
      if (s.doc === doc) {
        const v = s.score();
        if (v > best) best = v;
      }
    }
    return best;
  }

  /**
   * The largest per-doc bound of the active subs on the doc (Infinity when one
   * of them has none). Dormant subs are not included: the collector adds their bounds.
   */
  docBound(): number {
    let best = 0;
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc !== this.doc || (this.anyDormant && this.dormant[i] !== 0)) continue;
      if (s.docBound === undefined) return Infinity;
      const v = s.docBound();
      if (v > best) best = v;
    }
    return best;
  }

  /**
   * Nearest block edge of the active subs. Sleeping subs are not asked: their
   * block cursors must not pass docs they have not consumed yet.
   */
  shallowEnd(target: number): number {
    let end = NO_MORE_DOCS;
    for (let i = 0; i < this.subs.length; i++) {
      if (this.dormant[i] !== 0) continue;
      const e = this.subs[i].shallowEnd(target);
      if (e < end) end = e;
    }
    return end;
  }

  useFilter(bits: Uint32Array): void {
    for (const s of this.subs) s.useFilter?.(bits);
  }

  maxScoreIn(lo: number, hi: number, floor = Infinity): number {
    // Bounds of a range asked again are reused: a sub's block cursors have moved
    // past `lo`, so asked anew it would answer with its (looser) global maximum.
    const again = lo === this.lastLo && hi === this.lastHi;
    if (!again) this.subBounds.fill(-1);
    this.lastLo = lo;
    this.lastHi = hi;
    let max = 0;
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc > hi) continue;
      let m = this.subBounds[i];
      if (m < 0) {
        m = floor !== Infinity && s.maxScore * SAFE <= floor ? s.maxScore : s.maxScoreIn(lo, hi, floor);
        this.subBounds[i] = m;
      }
      if (m > max) max = m;
    }
    return max;
  }
}
