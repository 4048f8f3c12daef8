/**
 * BM25F-style scoring of one term across several text fields, as Lucene's
 * CombinedFieldQuery does: the fields act as one weighted pseudo-field,
 *
 *   freq = Σ_f boost_f · tf_f(d)        dl = Σ_f boost_f · len_f(d)   (all text fields)
 *   avgdl = Σ_f boost_f · sumTotalTermFreq_f / docCount,  docCount and df = max over fields
 *   score = idf · (k1 + 1) · freq / (freq + k1 · (1 - b + b · dl / avgdl))
 *
 * so a title match counts as `boost` extra occurrences before saturation
 * instead of adding a second, separately saturated BM25 score.
 *
 * Bounds for pruning come from the fields' impacts (see maxScoreIn); fields
 * without the term in a doc still lengthen its dl by at least their minimum
 * length in the segment, which bounds add.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import type { Impact, PostingsIterator, SegmentReader } from '../segment/types.ts';
import { NORM_TABLE } from '../segment/norms.ts';
import { bm25Score } from '../scoring/bm25.ts';
import type { TermWeight } from '../scoring/bm25.ts';
import { advanceIterator, bitSet } from './scorers.ts';
import type { Scorer } from './scorers.ts';

/** Postings of the term in one field, with its block cursor for bounds. */
class FieldCursor {
  blockEnd = -1;
  impacts: readonly Impact[] = [];
  /** Block end this cursor had when the scorer's cached bound was computed (-2: not part of it). */
  cachedEnd = -2;
  /** Impacts of every block overlapping the window being bounded: the first `wn` entries. */
  readonly window: Impact[] = [];
  wn = 0;
  /** Bound of this field alone over the current block (valid while boundEnd === blockEnd). */
  bound = 0;
  boundEnd = -2;
  /** boost × the field's minimum length in the segment (the whole minimum when the field is unknown). */
  minLength = 0;

  /** @param field index of the cursor's field in the schema's text fields (-1: unknown). */
  constructor(readonly it: PostingsIterator, readonly boost: number, readonly field: number) {}

  shallowEnd(target: number): number {
    if (this.blockEnd < target) {
      this.blockEnd = this.it.advanceShallow(target);
      this.impacts = this.it.blockImpacts();
    }
    return this.blockEnd;
  }
}

/** Smallest decoded length in a norms array (0 without norms), computed once per array. */
const minLengths = new WeakMap<Uint8Array, number>();
function minLength(norms: Uint8Array | null): number {
  if (norms === null) return 0;
  let m = minLengths.get(norms);
  if (m === undefined) {
    let b = 255;
    for (let d = 0; d < norms.length && b > 0; d++) if (NORM_TABLE[norms[d]] < NORM_TABLE[b]) b = norms[d];
    m = norms.length > 0 ? NORM_TABLE[b] : 0;
    minLengths.set(norms, m);
  }
  return m;
}

/** Largest cartesian product of impact lists enumerated exactly; larger ones use per-field maxima. */
const MAX_PRODUCT = 256;

/** A text field of the schema with its boost (length weight). */
export interface FieldLengths {
  name: string;
  boost: number;
}

export class CombinedScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private readonly cursors: FieldCursor[];
  private readonly norms: (Uint8Array | null)[];

  constructor(
    postings: { it: PostingsIterator; boost: number; field?: string }[],
    private readonly w: TermWeight,
    private readonly reader: SegmentReader,
    /** Every text field of the schema, fixed order: the doc length is summed over all of them. */
    private readonly fields: readonly FieldLengths[],
  ) {
    this.cursors = postings.map((p) => new FieldCursor(p.it, p.boost, p.field === undefined ? -1 : fields.findIndex((f) => f.name === p.field)));
    this.cost = postings.reduce((a, p) => a + p.it.cost(), 0);
    this.maxScore = w.weight;
    this.norms = fields.map((f) => (reader.norms ? reader.norms(f.name) : null));
    // Every doc's dl includes each field's weighted length, at least the field's minimum
    // in this segment: bounds add the minima of the fields outside the subset they cover.
    const mins = this.norms.map((n, i) => fields[i].boost * minLength(n));
    this.minTotal = mins.reduce((a, b) => a + b, 0);
    for (const c of this.cursors) c.minLength = c.field >= 0 ? mins[c.field] : this.minTotal;
  }

  /** Σ over all fields of boost × the field's minimum length in the segment. */
  private readonly minTotal: number;

  /** Weighted minimum length of the fields outside `mask` (bits over the active cursors). */
  private outside(active: FieldCursor[], mask: number): number {
    let m = this.minTotal;
    for (let i = 0; i < this.na; i++) if (mask & (1 << i)) m -= active[i].minLength;
    return m > 0 ? m : 0;
  }

  private settle(): number {
    let min = NO_MORE_DOCS;
    for (let i = 0; i < this.cursors.length; i++) {
      const d = this.cursors[i].it.docID();
      if (d < min) min = d;
    }
    return (this.doc = min);
  }

  nextDoc(): number {
    const cur = this.doc;
    for (let i = 0; i < this.cursors.length; i++) {
      const it = this.cursors[i].it;
      if (it.docID() <= cur) it.nextDoc();
    }
    return this.settle();
  }

  advance(target: number): number {
    for (let i = 0; i < this.cursors.length; i++) {
      const it = this.cursors[i].it;
      if (it.docID() < target) it.advance(target);
    }
    return this.settle();
  }

  advanceMatching(target: number, bits: Uint32Array): number {
    for (let i = 0; i < this.cursors.length; i++) {
      const it = this.cursors[i].it;
      const d = it.docID();
      if (d < target || (d !== NO_MORE_DOCS && !bitSet(bits, d))) advanceIterator(it, target, bits);
    }
    return this.settle();
  }

  /** The doc's weighted length over all text fields, summed in schema order. */
  private length(doc: number): number {
    let dl = 0;
    for (let i = 0; i < this.fields.length; i++) {
      const n = this.norms[i];
      dl += this.fields[i].boost * (n !== null ? NORM_TABLE[n[doc]] : this.reader.fieldLength(this.fields[i].name, doc));
    }
    return dl;
  }

  score(): number {
    let freq = 0;
    for (let i = 0; i < this.cursors.length; i++) {
      const c = this.cursors[i];
      if (c.it.docID() === this.doc) freq += c.boost * c.it.freq();
    }
    return bm25Score(this.w, freq, this.docLength());
  }

  /** Length of the current doc, computed once per doc (docBound and score both need it). */
  private docLength(): number {
    if (this.dlDoc !== this.doc) {
      this.dl = this.length(this.doc);
      this.dlDoc = this.doc;
    }
    return this.dl;
  }

  private dl = 0;
  private dlDoc = -1;

  /**
   * A bound on score() for the current doc from its exact length and the
   * largest freq of each field's current postings block (bm25 grows with freq),
   * so a doc that cannot compete is passed over without decoding freqs.
   * Infinity when some postings cannot tell their block's largest freq.
   */
  docBound(): number {
    let freq = 0;
    for (let i = 0; i < this.cursors.length; i++) {
      const c = this.cursors[i];
      const it = c.it as PostingsIterator & { blockMaxFreq?: (normByte?: number) => number };
      if (it.docID() !== this.doc) continue;
      if (it.blockMaxFreq === undefined) return Infinity;
      const norms = c.field >= 0 ? this.norms[c.field] : null;
      freq += c.boost * it.blockMaxFreq(norms !== null ? norms[this.doc] : 255);
    }
    return bm25Score(this.w, freq, this.docLength());
  }

  shallowEnd(target: number): number {
    let end = NO_MORE_DOCS;
    for (const c of this.cursors) {
      const e = c.shallowEnd(target);
      if (e < end) end = e;
    }
    return end;
  }

  /**
   * A doc of the window has the term in some non-empty subset S of the fields
   * with postings there; for each field of S an impact dominates it (freq ≥,
   * length ≤), so its score is at most bm25(Σ_S boost·freq, Σ_S boost·length)
   * for some choice of impacts. The bound is the max over subsets and choices
   * (per-field maxima when the product gets large).
   */
  maxScoreIn(lo: number, hi: number): number {
    if (this.doc > hi) return 0;
    if (this.cacheValid(lo, hi)) return this.cachedBound;
    const active = this.active;
    let na = 0;
    let single = true;
    for (let ci = 0; ci < this.cursors.length; ci++) {
      const c = this.cursors[ci];
      c.cachedEnd = -2;
      if (c.it.docID() > hi) continue;
      const win = c.window;
      let wn = 0;
      let end = c.shallowEnd(lo);
      for (let k = 0; k < c.impacts.length; k++) win[wn++] = c.impacts[k];
      while (end < hi && end !== NO_MORE_DOCS) {
        single = false;
        end = c.shallowEnd(end + 1);
        for (let k = 0; k < c.impacts.length; k++) win[wn++] = c.impacts[k];
      }
      c.wn = wn;
      if (wn > 0) {
        active[na++] = c;
        c.cachedEnd = c.blockEnd;
      }
    }
    this.na = na;
    if (na === 1 && single) {
      // One field on one block: its per-block bound, computed once per block.
      const c = active[0];
      if (c.boundEnd !== c.blockEnd) {
        c.bound = this.subsetBound(active, 1);
        c.boundEnd = c.blockEnd;
      }
      this.cacheSingle = true;
      this.cachedBound = c.bound;
      return c.bound;
    }
    let best = 0;
    for (let mask = 1; mask < 1 << na; mask++) {
      const b = this.subsetBound(active, mask);
      if (b > best) best = b;
    }
    this.cacheSingle = single;
    this.cachedBound = best;
    return best;
  }

  private cachedBound = 0;
  /** The cached bound came from one block per field (so it holds for any sub-range of those blocks). */
  private cacheSingle = false;

  /**
   * The last bound still holds for [lo, hi] when every field with docs in the
   * range is on the very block (a single one) it was computed from, and that
   * block covers `hi`: fields no longer present only made it larger.
   */
  private cacheValid(lo: number, hi: number): boolean {
    if (!this.cacheSingle) return false;
    for (const c of this.cursors) {
      if (c.it.docID() > hi) continue;
      if (c.cachedEnd < 0 || c.shallowEnd(lo) !== c.cachedEnd || c.cachedEnd < hi) return false;
    }
    return true;
  }

  /** Cursors with docs in the window being bounded: the first `na` entries. */
  private readonly active: FieldCursor[] = [];
  private na = 0;

  private subsetBound(active: FieldCursor[], mask: number): number {
    const rest = this.outside(active, mask);
    if ((mask & (mask - 1)) === 0) {
      const c = active[31 - Math.clz32(mask)];
      let best = 0;
      const win = c.window;
      for (let k = 0; k < c.wn; k++) {
        const imp = win[k];
        const v = bm25Score(this.w, c.boost * imp.freq, c.boost * imp.norm + rest);
        if (v > best) best = v;
      }
      return best;
    }
    let product = 1;
    for (let i = 0; i < this.na; i++) if (mask & (1 << i)) product *= active[i].wn;
    if (product > MAX_PRODUCT) {
      let f = 0;
      let n = 0;
      for (let i = 0; i < this.na; i++) {
        if (!(mask & (1 << i))) continue;
        let mf = 0;
        let mn = Infinity;
        const win = active[i].window;
        for (let k = 0; k < active[i].wn; k++) {
          const imp = win[k];
          if (imp.freq > mf) mf = imp.freq;
          if (imp.norm < mn) mn = imp.norm;
        }
        f += active[i].boost * mf;
        n += active[i].boost * mn;
      }
      return bm25Score(this.w, f, n + rest);
    }
    return this.walk(active, mask, 0, 0, rest);
  }

  /** Max of bm25 over one impact per field of `mask`, from field `i` on, with partial sums f and n. */
  private walk(active: FieldCursor[], mask: number, i: number, f: number, n: number): number {
    if (i === this.na) return bm25Score(this.w, f, n);
    if (!(mask & (1 << i))) return this.walk(active, mask, i + 1, f, n);
    let best = 0;
    const c = active[i];
    for (let k = 0; k < c.wn; k++) {
      const imp = c.window[k];
      const v = this.walk(active, mask, i + 1, f + c.boost * imp.freq, n + c.boost * imp.norm);
      if (v > best) best = v;
    }
    return best;
  }
}
