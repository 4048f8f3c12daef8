/**
 * Scorers: doc-at-a-time iterators that also score and give upper bounds for
 * dynamic pruning. A Scorer is positioned on `doc` (-1 before the first move,
 * NO_MORE_DOCS at the end), moves only forward, and knows
 *  - `maxScore`: a bound on every score it can return;
 *  - `shallowEnd(t)`: the last doc of the postings block covering t (window edges);
 *  - `maxScoreIn(lo, hi)`: a bound on scores of docs within [lo, hi]; `lo` must
 *    not decrease between calls (the block cursor only moves forward), and the
 *    scorer must not have skipped unconsumed docs of [lo, hi] (so a scorer
 *    already positioned past `hi` bounds the range by 0).
 *
 *  TermScorer      one (field, term): BM25 from freq and field length, impacts for bounds.
 *  MaxScorer       union of a word's alternatives (or of a required item's fields); scores the best.
 *  CombinedScorer  (combined-scorer.ts) one term over all text fields, BM25F.
 *  PhraseScorer    (phrase-scorer.ts) exact phrase in one field via positions.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import type { PostingsIterator, SegmentReader } from '../segment/types.ts';
import { bm25Score, bm25UpperBound } from '../scoring/bm25.ts';
import { NORM_TABLE } from '../segment/norms.ts';
import type { TermWeight } from '../scoring/bm25.ts';

export interface Scorer {
  doc: number;
  readonly cost: number;
  readonly maxScore: number;
  nextDoc(): number;
  advance(target: number): number;
  score(): number;
  shallowEnd(target: number): number;
  maxScoreIn(lo: number, hi: number): number;
  /**
   * Optional fast path under a filter bitset: move to the first doc >= target
   * whose bit is set in `bits` (`target` may be <= doc; then only a doc the
   * filter rejects moves). See advanceMatching below for the generic form.
   */
  advanceMatching?(target: number, bits: Uint32Array): number;
  /** Optional: a bound on score() for the current doc, cheaper than scoring it (e.g. without decoding freqs). */
  docBound?(): number;
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

  shallowEnd(target: number): number {
    if (this.blockEnd < target) {
      this.blockEnd = this.it.advanceShallow(target);
      this.blockMax = bm25UpperBound(this.w, this.it.blockImpacts());
    }
    return this.blockEnd;
  }

  maxScoreIn(lo: number, hi: number): number {
    if (this.doc > hi) return 0;
    let end = this.shallowEnd(lo);
    let max = this.blockMax;
    while (end < hi && end !== NO_MORE_DOCS) {
      end = this.shallowEnd(end + 1);
      if (this.blockMax > max) max = this.blockMax;
    }
    return max;
  }
}

/** Disjunction of scorers of interchangeable terms; the score of a doc is the best sub-score. */
export class MaxScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;

  constructor(private readonly subs: Scorer[]) {
    let cost = 0;
    let max = 0;
    for (const s of subs) {
      cost += s.cost;
      if (s.maxScore > max) max = s.maxScore;
    }
    this.cost = cost;
    this.maxScore = max;
  }

  private settle(): number {
    let min = NO_MORE_DOCS;
    for (let i = 0; i < this.subs.length; i++) if (this.subs[i].doc < min) min = this.subs[i].doc;
    return (this.doc = min);
  }

  nextDoc(): number {
    const cur = this.doc;
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc <= cur) s.nextDoc();
    }
    return this.settle();
  }

  advance(target: number): number {
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc < target) s.advance(target);
    }
    return this.settle();
  }

  advanceMatching(target: number, bits: Uint32Array): number {
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc < target || (s.doc !== NO_MORE_DOCS && !bitSet(bits, s.doc))) advanceMatching(s, target, bits);
    }
    return this.settle();
  }

  score(): number {
    let best = 0;
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc === this.doc) {
        const v = s.score();
        if (v > best) best = v;
      }
    }
    return best;
  }

  /** The largest per-doc bound of the subs on the doc (Infinity when one of them has none). */
  docBound(): number {
    let best = 0;
    for (let i = 0; i < this.subs.length; i++) {
      const s = this.subs[i];
      if (s.doc !== this.doc) continue;
      if (s.docBound === undefined) return Infinity;
      const v = s.docBound();
      if (v > best) best = v;
    }
    return best;
  }

  shallowEnd(target: number): number {
    let end = NO_MORE_DOCS;
    for (const s of this.subs) {
      const e = s.shallowEnd(target);
      if (e < end) end = e;
    }
    return end;
  }

  maxScoreIn(lo: number, hi: number): number {
    let max = 0;
    for (const s of this.subs) {
      const m = s.maxScoreIn(lo, hi);
      if (m > max) max = m;
    }
    return max;
  }
}
