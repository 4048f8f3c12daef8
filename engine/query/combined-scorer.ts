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

/**
 * Per filter bitset (one segment's): the smallest weighted doc length among
 * the docs it accepts, per bitset word (32 docs) and per group of 64 words,
 * rounded down to float32 (Infinity: no accepted doc). Lower bounds only.
 * Filled a group at a time, when a window first needs it.
 */
interface FilterMins {
  bits: Uint32Array;
  maxDoc: number;
  length: (doc: number) => number;
  words: Float32Array;
  groups: Float32Array;
  /** 1 when the group's words are filled. */
  filled: Uint8Array;
}

/** Text-field lists (name and boost) as cache keys. */
const fieldsKeys = new WeakMap<readonly FieldLengths[], string>();

/** Kept as long as the bitset (held by the FilterCache), per schema text fields. */
const filterMinsCache = new WeakMap<Uint32Array, Map<string, FilterMins>>();

/** Float32 value at most `v` (v >= 0). */
function floatBelow(v: number): number {
  const f = Math.fround(v);
  return f <= v ? f : Math.fround(v * (1 - 1e-6));
}

function newFilterMins(bits: Uint32Array, maxDoc: number, length: (doc: number) => number): FilterMins {
  const nGroups = (bits.length + 63) >>> 6;
  return { bits, maxDoc, length, words: new Float32Array(bits.length), groups: new Float32Array(nGroups), filled: new Uint8Array(nGroups) };
}

function fillGroup(m: FilterMins, g: number): void {
  const { bits, maxDoc, words, length } = m;
  let gmin = Infinity;
  const end = Math.min(bits.length, (g + 1) << 6);
  for (let w = g << 6; w < end; w++) {
    let word = bits[w];
    let min = Infinity;
    while (word !== 0) {
      const low = word & -word;
      const d = (w << 5) + (31 - Math.clz32(low));
      word ^= low;
      if (d >= maxDoc) break;
      const dl = length(d);
      if (dl < min) min = dl;
    }
    const f = min === Infinity ? Infinity : floatBelow(min);
    words[w] = f;
    if (f < gmin) gmin = f;
  }
  m.groups[g] = gmin;
  m.filled[g] = 1;
}

/** Smallest entry of the words covering docs [lo, hi]. */
function rangeMin(m: FilterMins, lo: number, hi: number): number {
  const words = m.words;
  let a = lo >>> 5;
  const b = Math.min(hi >>> 5, words.length - 1);
  let min = Infinity;
  while (a <= b) {
    const g = a >>> 6;
    if (m.filled[g] === 0) fillGroup(m, g);
    if ((a & 63) === 0 && a + 63 <= b) {
      if (m.groups[g] < min) min = m.groups[g];
      a += 64;
    } else {
      if (words[a] < min) min = words[a];
      a++;
    }
  }
  return min;
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
    if (this.doc > hi) return 0;
    if (!this.cacheValid(lo, hi)) this.collect(lo, hi);
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
    let byFields = filterMinsCache.get(bits);
    if (byFields === undefined) filterMinsCache.set(bits, (byFields = new Map()));
    let key = fieldsKeys.get(this.fields);
    if (key === undefined) fieldsKeys.set(this.fields, (key = this.fields.map((f) => `${f.name}\u0000${f.boost}`).join('\u0001')));
    let m = byFields.get(key);
    if (m === undefined) {
      // The length function must not hold this scorer (the entry lives as long as the bitset).
      const { fields, norms, reader } = this;
      const length = (doc: number): number => {
        let dl = 0;
        for (let i = 0; i < fields.length; i++) {
          const n = norms[i];
          dl += fields[i].boost * (n !== null ? NORM_TABLE[n[doc]] : reader.fieldLength(fields[i].name, doc));
        }
        return dl;
      };
      m = newFilterMins(bits, reader.maxDoc, length);
      byFields.set(key, m);
    }
    this.filterMins = m;
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
