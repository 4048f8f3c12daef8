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
import { NORM_TABLE } from '../similarity/norms.ts';
import { bm25Score } from '../similarity/bm25.ts';
import type { TermWeight } from '../similarity/bm25.ts';
import { advanceIterator, bitSet } from './scorers.ts';
import { acquireScratch, releaseScratch, scoreRangeByDoc } from './range-scoring.ts';
import type { Scorer } from './scorers.ts';
import { addCombinedScores } from './score-table.ts';
import type { ScoreTable } from './score-table.ts';
import { filterMinsFor, impactPairs, maxFreqAtNorm, rangeMin, segmentLengths } from './field-lengths.ts';
import type { FieldLengths, FilterMins } from './field-lengths.ts';

export type { FieldLengths } from './field-lengths.ts';

/** Postings of the term in one field, with its block cursor for bounds. */
class FieldCursor {
  blockEnd = -1;
  /** Target of the cursor's last move: its block holds every doc of the term in [from, blockEnd]. */
  from = -1;
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
  constructor(
    readonly it: PostingsIterator,
    readonly boost: number,
    readonly field: number,
  ) {}

  shallowEnd(target: number): number {
    if (this.blockEnd < target) {
      this.blockEnd = this.it.advanceShallow(target);
      this.impacts = this.it.blockImpacts();
      this.from = target;
    }
    return this.blockEnd;
  }

  /**
   * True when the block cursor has moved past `lo` while docs from `lo` on remain to be read:
   * the blocks it passed are gone, so it cannot bound a range starting at `lo`.
   */
  passed(lo: number): boolean {
    return this.from > lo && this.from > this.it.docID();
  }
}

/** Relative safety margin on summed bounds against float rounding (as collector/top-k.ts). */
const SAFE = 1 + 1e-9;

/** Largest cartesian product of impact lists enumerated exactly; larger ones use per-field maxima. */
const MAX_PRODUCT = 256;

export class CombinedScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private readonly cursors: FieldCursor[];
  /** The cursors that lead the enumeration: `cursors` itself unless restricted (see lagMask). */
  private leading: FieldCursor[];
  private readonly norms: (Uint8Array | null)[];

  constructor(
    postings: { it: PostingsIterator; boost: number; field?: string }[],
    private readonly w: TermWeight,
    private readonly reader: SegmentReader,
    /** Every text field of the schema, fixed order: the doc length is summed over all of them. */
    private readonly fields: readonly FieldLengths[],
  ) {
    const cursors: FieldCursor[] = [];
    let cost = 0;
    for (const p of postings) {
      cursors.push(
        new FieldCursor(p.it, p.boost, p.field === undefined ? -1 : fields.findIndex((f) => f.name === p.field)),
      );
      cost += p.it.cost();
    }
    this.cursors = cursors;
    this.leading = cursors;
    this.cost = cost;
    this.maxScore = w.weight;
    const seg = segmentLengths(fields, reader);
    this.norms = seg.norms;
    this.lengths = seg.lengths;
    // Every doc's dl includes each field's weighted length, at least the field's minimum
    // in this segment: bounds add the minima of the fields outside the subset they cover.
    this.minTotal = seg.minTotal;
    for (const c of cursors) c.minLength = c.field >= 0 ? seg.mins[c.field] : this.minTotal;
  }

  /** Σ over all fields of boost × the field's minimum length in the segment. */
  private readonly minTotal: number;

  /** Weighted minimum length of the fields outside `mask` (bits over the active cursors). */
  private outside(active: FieldCursor[], mask: number): number {
    let m = this.minTotal;
    for (let i = 0; i < this.na; i++) if (mask & (1 << i)) m -= active[i].minLength;
    return m > 0 ? m : 0;
  }

  /**
   * Cursor i lags while bit i of `lagMask` is set (restrict): it no longer leads the
   * enumeration (it is not in `leading`: nextDoc, advance and advanceMatching
   * leave it, `doc` is the least of the leading cursors') and is moved to a doc
   * only to score or bound it. See restrict().
   */
  private lagMask = 0;
  /** Per lagging cursor: its window impacts as (norm byte, freq) pairs (field-lengths.ts impactPairs). */
  private readonly lagPairs: (Int32Array | undefined)[] = [];

  private settle(): number {
    let min = NO_MORE_DOCS;
    const cursors = this.leading;
    for (let i = 0; i < cursors.length; i++) {
      const d = cursors[i].it.docID();
      if (d < min) min = d;
    }
    return (this.doc = min);
  }

  nextDoc(): number {
    const cur = this.doc;
    const cursors = this.leading;
    for (let i = 0; i < cursors.length; i++) {
      const it = cursors[i].it;
      if (it.docID() <= cur) it.nextDoc();
    }
    return this.settle();
  }

  advance(target: number): number {
    const cursors = this.leading;
    for (let i = 0; i < cursors.length; i++) {
      const it = cursors[i].it;
      if (it.docID() < target) it.advance(target);
    }
    return this.settle();
  }

  advanceMatching(target: number, bits: Uint32Array): number {
    const cursors = this.leading;
    for (let i = 0; i < cursors.length; i++) {
      const it = cursors[i].it;
      const d = it.docID();
      if (d < target || (d !== NO_MORE_DOCS && !bitSet(bits, d))) advanceIterator(it, target, bits);
    }
    return this.settle();
  }

  /** Lagging cursors moved up to the current doc (they never pass it). */
  private catchUp(): void {
    const doc = this.doc;
    for (let i = 0; i < this.cursors.length; i++) {
      if ((this.lagMask & (1 << i)) === 0) continue;
      const it = this.cursors[i].it;
      if (it.docID() < doc) it.advance(doc);
    }
  }

  /**
   * For the window [lo, hi] last bounded by maxScoreIn: when the docs of the
   * window that have the term in none of some fields L cannot compete (the
   * bound of every field subset outside L plus `others`, the bounds of the
   * query's other clauses, is at most `minScore`), the cheapest such L leads
   * the enumeration and the other fields lag (see lagMask) until release(). Any
   * doc the scorer then skips has a score of at most minScore. Needs at least
   * two fields with postings in the window; true when restricted.
   */
  restrict(lo: number, hi: number, minScore: number, others: number): boolean {
    const na = this.na;
    if (na < 2 || na > 4 || this.cursors.length > 30 || lo !== this.boundLo || hi !== this.boundHi || this.doc > hi)
      return false;
    let minDl = 0;
    if (this.filterMins !== null) {
      minDl = rangeMin(this.filterMins, this.boundLo, this.boundHi);
      if (minDl === Infinity) return false;
    }
    const active = this.active;
    const full = (1 << na) - 1;
    const mb = (this.maskBounds ??= new Float64Array(16));
    for (let mask = 1; mask < full; mask++) mb[mask] = this.subsetBound(active, mask, minDl);
    let best = -1;
    let bestCost = Infinity;
    let allCost = 0;
    for (let i = 0; i < na; i++) allCost += active[i].it.cost();
    for (let lead = 1; lead < full; lead++) {
      const comp = full ^ lead;
      let b = 0;
      for (let m = comp; m > 0; m = (m - 1) & comp) if (mb[m] > b) b = mb[m];
      if ((others + b) * SAFE > minScore) continue;
      let cost = 0;
      for (let i = 0; i < na; i++) if (lead & (1 << i)) cost += active[i].it.cost();
      if (cost < bestCost) {
        bestCost = cost;
        best = lead;
      }
    }
    if (best < 0 || bestCost >= allCost) return false;
    for (let i = 0; i < na; i++) {
      if (best & (1 << i)) continue;
      const ci = this.cursors.indexOf(active[i]);
      this.lagMask |= 1 << ci;
      this.lagPairs[ci] = impactPairs(active[i].window, active[i].wn, this.lagPairs[ci]);
    }
    this.leading = this.cursors.filter((_, i) => (this.lagMask & (1 << i)) === 0);
    this.settle();
    return true;
  }

  /** Every cursor leads again (after restrict); `doc` is the least of all cursors'. */
  release(): void {
    if (this.lagMask === 0) return;
    this.lagMask = 0;
    this.leading = this.cursors;
    this.settle();
  }

  /** Bounds per field subset of the window (restrict). */
  private maskBounds: Float64Array | null = null;
  /** Range of the last maxScoreIn. */
  private boundLo = -1;
  private boundHi = -1;

  /**
   * The doc's weighted length over all text fields, summed in schema order
   * (precomputed per segment; 0 when no field has norms in the segment; asked
   * per field when the reader has no norms at all).
   */
  private length(doc: number): number {
    if (this.lengths !== null) return this.lengths[doc];
    if (this.reader.norms) return 0;
    let dl = 0;
    for (let i = 0; i < this.fields.length; i++)
      dl += this.fields[i].boost * this.reader.fieldLength(this.fields[i].name, doc);
    return dl;
  }

  /** Every doc's length(), precomputed per segment (field-lengths.ts docLengths), or null. */
  private readonly lengths: Float64Array | null;

  score(): number {
    if (this.lagMask !== 0) this.catchUp();
    let freq = 0;
    for (let i = 0; i < this.cursors.length; i++) {
      const c = this.cursors[i];
      if (c.it.docID() === this.doc) freq += c.boost * c.it.freq();
    }
    return bm25Score(this.w, freq, this.docLength());
  }

  scoreRest(bits: Uint32Array | null, table: ScoreTable): void {
    if (this.lagMask !== 0) this.release();
    addCombinedScores(table, this.cursors, this.doc, bits, this.w, this.lengths, (doc) => this.length(doc));
    this.doc = NO_MORE_DOCS;
  }

  scoreRange(lo: number, hi: number, out: Float64Array, marks: Uint8Array, max: boolean): void {
    if (this.lagMask !== 0) {
      // restricted (lagging fields are moved per doc): scored doc by doc
      scoreRangeByDoc(this, lo, hi, out, marks, max);
      return;
    }
    // freq = Σ boost · tf over the fields in cursor order, from 0, as score() sums it
    const { values: freqs, marks: seen } = acquireScratch();
    try {
      for (let k = 0; k < this.cursors.length; k++) {
        const c = this.cursors[k];
        const it = c.it as PostingsIterator & {
          addFreqs?: (lo: number, hi: number, acc: Float64Array, marks: Uint8Array, boost: number) => void;
        };
        if (it.docID() >= hi) continue;
        if (it.addFreqs !== undefined) it.addFreqs(lo, hi, freqs, seen, c.boost);
        else {
          for (let d = it.docID(); d < hi; d = it.nextDoc()) {
            freqs[d - lo] += c.boost * it.freq();
            seen[d - lo] = 1;
          }
        }
      }
      const width = hi - lo;
      for (let i = 0; i < width; i++) {
        if (seen[i] === 0) continue;
        const freq = freqs[i];
        freqs[i] = 0;
        seen[i] = 0;
        const v = bm25Score(this.w, freq, this.length(lo + i));
        if (max) {
          if (v > out[i]) out[i] = v;
        } else out[i] += v;
        marks[i] = 1;
      }
    } catch (err) {
      freqs.fill(0);
      seen.fill(0);
      throw err;
    } finally {
      releaseScratch();
    }
    this.settle();
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
    if (this.lagMask !== 0) return this.lagDocBound();
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

  /** docBound while restricted: a lagging field behind the doc is bounded by its window impacts. */
  private lagDocBound(): number {
    let freq = 0;
    const lagMask = this.lagMask;
    for (let i = 0; i < this.cursors.length; i++) {
      const c = this.cursors[i];
      const it = c.it as PostingsIterator & { blockMaxFreq?: (normByte?: number) => number };
      if ((lagMask & (1 << i)) !== 0 && it.docID() < this.doc) {
        // A lagging field is not decoded for a bound: its window impacts bound the freq at the doc's length.
        const norms = c.field >= 0 ? this.norms[c.field] : null;
        freq += c.boost * maxFreqAtNorm(this.lagPairs[i]!, norms !== null ? norms[this.doc] : 255);
        continue;
      }
      if (it.docID() !== this.doc) continue;
      if (it.blockMaxFreq === undefined) return Infinity;
      const norms = c.field >= 0 ? this.norms[c.field] : null;
      freq += c.boost * it.blockMaxFreq(norms !== null ? norms[this.doc] : 255);
    }
    return bm25Score(this.w, freq, this.docLength());
  }

  /** Nearest block edge of the leading cursors (lagging ones must not pass docs they have not consumed). */
  shallowEnd(target: number): number {
    let end = NO_MORE_DOCS;
    for (const c of this.leading) {
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
   *
   * Under a filter (useFilter) and with a finite `floor` (the caller skips the
   * window when the bound is at most it), only docs the filter accepts can be
   * collected, and each of them has dl ≥ minDl, the smallest weighted length
   * among the accepted docs of the window's bitset words (none: the bound is
   * 0). The cheap bound bm25(Σ boost·largest impact freq, minDl) or the plain
   * impacts bound is returned when one of them is at most `floor`; otherwise
   * the impacts bound with every length raised to at least minDl (at most both).
   */
  maxScoreIn(lo: number, hi: number, floor = Infinity): number {
    this.boundLo = lo;
    this.boundHi = hi;
    if (this.doc > hi) return 0;
    if (!this.cacheValid(lo, hi)) {
      // A range that starts before where a cursor has already been bounded (a window cut
      // shorter after its clauses were bounded over it) gets the global bound.
      for (let ci = 0; ci < this.cursors.length; ci++) if (this.cursors[ci].passed(lo)) return this.maxScore;
      this.collect(lo, hi);
    }
    if (this.filterMins !== null && floor !== Infinity) {
      const minDl = rangeMin(this.filterMins, lo, hi);
      if (minDl === Infinity) return 0;
      const fb = this.filteredBound(minDl);
      if (fb <= floor) return fb;
      if (this.cachedBound < 0) this.cachedBound = this.impactsBound(0);
      const b = fb < this.cachedBound ? fb : this.cachedBound;
      if (b <= floor) return b;
      // Worth a walk (the caller would skip the window below `floor`): every impact
      // choice with the doc length raised to minDl, at most both bounds above.
      return this.impactsBound(minDl);
    }
    if (this.cachedBound < 0) this.cachedBound = this.impactsBound(0);
    return this.cachedBound;
  }

  /** Gather the impacts of every block overlapping [lo, hi], per field with postings there. */
  private collect(lo: number, hi: number): void {
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
    this.cacheSingle = single;
    this.cachedBound = -1;
  }

  /**
   * The impacts bound over the collected windows, every doc length taken as at
   * least `minDl` (0: none). Per-block memo for one field on one block without minDl.
   */
  private impactsBound(minDl: number): number {
    const active = this.active;
    const na = this.na;
    if (na === 1 && this.cacheSingle && minDl === 0) {
      // One field on one block: its per-block bound, computed once per block.
      const c = active[0];
      if (c.boundEnd !== c.blockEnd) {
        c.bound = this.subsetBound(active, 1, 0);
        c.boundEnd = c.blockEnd;
      }
      return c.bound;
    }
    let best = 0;
    for (let mask = 1; mask < 1 << na; mask++) {
      const b = this.subsetBound(active, mask, minDl);
      if (b > best) best = b;
    }
    return best;
  }

  /** Smallest weighted length per bitset word among the docs the filter accepts (see useFilter), or null. */
  private filterMins: FilterMins | null = null;

  /**
   * Tighten window bounds by the filter bitset `bits` of this segment (bit d
   * of word d >>> 5): only docs it accepts may be collected from now on.
   */
  useFilter(bits: Uint32Array): void {
    this.filterMins = filterMinsFor(bits, this.fields, this.norms, this.reader);
  }

  /** bm25 of the window's largest weighted freq at the smallest length an accepted doc has there. */
  private filteredBound(minDl: number): number {
    let freq = 0;
    for (let i = 0; i < this.na; i++) {
      const c = this.active[i];
      let mf = 0;
      const win = c.window;
      for (let k = 0; k < c.wn; k++) if (win[k].freq > mf) mf = win[k].freq;
      freq += c.boost * mf;
    }
    return bm25Score(this.w, freq, minDl);
  }

  /** Impacts bound of the collected windows (without filter); -1 until computed. */
  private cachedBound = -1;
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

  /** Bound for docs with the term in exactly the fields of `mask`, lengths at least `minDl`. */
  private subsetBound(active: FieldCursor[], mask: number, minDl: number): number {
    const rest = this.outside(active, mask);
    if ((mask & (mask - 1)) === 0) {
      const c = active[31 - Math.clz32(mask)];
      let best = 0;
      const win = c.window;
      for (let k = 0; k < c.wn; k++) {
        const imp = win[k];
        const len = c.boost * imp.norm + rest;
        const v = bm25Score(this.w, c.boost * imp.freq, len > minDl ? len : minDl);
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
      return bm25Score(this.w, f, n + rest > minDl ? n + rest : minDl);
    }
    const high = mask & (mask - 1);
    if ((high & (high - 1)) === 0) {
      // Two fields (the common case): the walk's sums, in its order, without recursion.
      const a = active[31 - Math.clz32(mask & -mask)];
      const c = active[31 - Math.clz32(high)];
      const wa = a.window;
      const wc = c.window;
      let best = 0;
      for (let i = 0; i < a.wn; i++) {
        const fa = 0 + a.boost * wa[i].freq;
        const na = rest + a.boost * wa[i].norm;
        for (let k = 0; k < c.wn; k++) {
          const n = na + c.boost * wc[k].norm;
          const v = bm25Score(this.w, fa + c.boost * wc[k].freq, n > minDl ? n : minDl);
          if (v > best) best = v;
        }
      }
      return best;
    }
    const third = high & (high - 1);
    if ((third & (third - 1)) === 0) {
      // Three fields: the walk's sums, in its order (lowest field first), without recursion
      // (whose double arguments would be boxed per call).
      const a = active[31 - Math.clz32(mask & -mask)];
      const b = active[31 - Math.clz32(high & -high)];
      const c = active[31 - Math.clz32(third)];
      const wa = a.window;
      const wb = b.window;
      const wc = c.window;
      let best = 0;
      for (let i = 0; i < a.wn; i++) {
        const fa = 0 + a.boost * wa[i].freq;
        const na = rest + a.boost * wa[i].norm;
        for (let j = 0; j < b.wn; j++) {
          const fb = fa + b.boost * wb[j].freq;
          const nb = na + b.boost * wb[j].norm;
          for (let k = 0; k < c.wn; k++) {
            const n = nb + c.boost * wc[k].norm;
            const v = bm25Score(this.w, fb + c.boost * wc[k].freq, n > minDl ? n : minDl);
            if (v > best) best = v;
          }
        }
      }
      return best;
    }
    return this.walk(active, mask, 0, 0, rest, minDl);
  }

  /** Max of bm25 over one impact per field of `mask`, from field `i` on, with partial sums f and n. */
  private walk(active: FieldCursor[], mask: number, i: number, f: number, n: number, minDl: number): number {
    if (i === this.na) return bm25Score(this.w, f, n > minDl ? n : minDl);
    if (!(mask & (1 << i))) return this.walk(active, mask, i + 1, f, n, minDl);
    let best = 0;
    const c = active[i];
    for (let k = 0; k < c.wn; k++) {
      const imp = c.window[k];
      const v = this.walk(active, mask, i + 1, f + c.boost * imp.freq, n + c.boost * imp.norm, minDl);
      if (v > best) best = v;
    }
    return best;
  }
}
