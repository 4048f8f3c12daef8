/**
 * Postings reader: a PostingsIterator over the block format of postings-writer.ts.
 * Skip entries are decoded when the iterator is created (a few bytes per block), blocks
 * are decoded one at a time (their term frequencies on the first freq() in the block),
 * positions only when asked for, impacts only per shallow block. Every block decoded is
 * counted per thread (`postingsBlocksDecoded`: the work measure of query budgets).
 */
import { NO_MORE_DOCS, type Impact, type PostingsIterator } from '../segment/types.ts';
import { ByteReader } from '../util/bytes.ts';
import { unpackBlock } from './bitpack.ts';
import { BLOCK_SIZE, type TermMeta } from './postings-writer.ts';
import { intToByte4 } from '../similarity/norms.ts';

const EMPTY_POSITIONS = new Int32Array(0);
const NO_BLOCK = new Int32Array(0);
/** Block scratch of drain() (single-threaded, never held across calls). */
const scratchDocs = new Int32Array(BLOCK_SIZE);
const scratchFreqs = new Int32Array(BLOCK_SIZE);

/** Postings blocks decoded on this thread so far (query/budget.ts reads the difference over a search). */
let blocksDecoded = 0;

/** Postings blocks decoded on this thread so far (monotonic). */
export function postingsBlocksDecoded(): number {
  return blocksDecoded;
}

/** Decoded skip entries of one term (immutable; may be cached and shared by iterators). */
export interface SkipData {
  nBlocks: number;
  lastDocs: number[];
  docOffs: number[];
  posOffs: number[];
  impactOffs: number[];
  /** Decoded impacts per block, filled lazily (shared, never mutated once set). */
  impacts: (Impact[] | undefined)[];
}

export function decodeSkip(docData: Uint8Array, meta: TermMeta): SkipData {
  const nBlocks = Math.ceil(meta.docFreq / BLOCK_SIZE);
  // plain arrays: cheaper to allocate than typed arrays for the common one-block lists
  const lastDocs: number[] = new Array(nBlocks);
  const docOffs: number[] = new Array(nBlocks);
  const posOffs: number[] = new Array(nBlocks);
  const impactOffs: number[] = new Array(nBlocks);
  const r = new ByteReader(docData, meta.docStart);
  const skipLen = r.varint();
  let blockOff = r.pos + skipLen;
  let posOff = meta.posStart;
  let last = -1;
  for (let b = 0; b < nBlocks; b++) {
    last += r.varint();
    lastDocs[b] = last;
    docOffs[b] = blockOff;
    blockOff += r.varint();
    posOffs[b] = posOff;
    posOff += r.varint();
    impactOffs[b] = r.pos;
    const ni = r.varint();
    for (let k = 0; k < ni; k++) {
      r.varint();
      r.varint();
    }
  }
  return { nBlocks, lastDocs, docOffs, posOffs, impactOffs, impacts: new Array(nBlocks) };
}

export class BlockPostingsIterator implements PostingsIterator {
  private readonly nBlocks: number;
  private readonly lastDocs: number[];
  private readonly docOffs: number[];
  private readonly posOffs: number[];
  private readonly skip: SkipData;
  private docs: Int32Array = NO_BLOCK;
  private freqs: Int32Array = NO_BLOCK;
  private block = -1;
  private n = 0;
  private idx = -1;
  private doc = -1;
  /** Block whose freqs are decoded in `freqs` (they are decoded on the first freq() of a block). */
  private freqsBlock = -1;
  private freqOff = 0;
  private shallow = 0;
  private posCursor = 0;
  private posDocIdx = 0;

  constructor(
    private readonly docData: Uint8Array,
    private readonly posData: Uint8Array,
    private readonly meta: TermMeta,
    private readonly withPositions: boolean,
    skip?: SkipData,
  ) {
    this.skip = skip ?? decodeSkip(docData, meta);
    this.nBlocks = this.skip.nBlocks;
    this.lastDocs = this.skip.lastDocs;
    this.docOffs = this.skip.docOffs;
    this.posOffs = this.skip.posOffs;
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.meta.docFreq;
  }

  freq(): number {
    if (this.freqsBlock !== this.block) this.decodeFreqs();
    return this.freqs[this.idx];
  }

  nextDoc(): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    if (++this.idx >= this.n) {
      if (this.block + 1 >= this.nBlocks) return (this.doc = NO_MORE_DOCS);
      this.loadBlock(this.block + 1);
      this.idx = 0;
    }
    return (this.doc = this.docs[this.idx]);
  }

  advance(target: number): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    if (this.block < 0 || target > this.lastDocs[this.block]) {
      const b = this.findBlock(target, Math.max(this.block, 0));
      if (b >= this.nBlocks) return (this.doc = NO_MORE_DOCS);
      this.loadBlock(b);
      this.idx = 0;
    } else if (this.idx < 0) {
      this.idx = 0;
    }
    const docs = this.docs;
    let i = this.idx;
    while (docs[i] < target) i++;
    this.idx = i;
    return (this.doc = docs[i]);
  }

  advanceShallow(target: number): number {
    const b = this.findBlock(target, this.shallow);
    this.shallow = b;
    return b >= this.nBlocks ? NO_MORE_DOCS : this.lastDocs[b];
  }

  blockImpacts(): Impact[] {
    const b = this.shallow;
    if (b >= this.nBlocks) return [];
    return this.impactsOf(b);
  }

  /**
   * A bound on the current doc's term frequency from its block's impacts, without
   * decoding the block's freqs: the largest freq among impacts whose norm byte is
   * at most `normByte` (the doc's own norm byte; every doc of a block is dominated
   * by an impact with freq >= its freq and length <= its length). 255: any impact.
   */
  blockMaxFreq(normByte = 255): number {
    if (this.block !== this.impBlock) {
      const imps = this.impactsOf(this.block);
      const k = imps.length;
      if (this.impFreq.length < k) {
        this.impFreq = new Int32Array(k * 2);
        this.impByte = new Int32Array(k * 2);
      }
      for (let i = 0; i < k; i++) {
        this.impFreq[i] = imps[i].freq;
        this.impByte[i] = intToByte4(imps[i].norm);
      }
      this.nImp = k;
      this.impBlock = this.block;
    }
    let mf = 0;
    let all = 0;
    for (let i = 0; i < this.nImp; i++) {
      const f = this.impFreq[i];
      if (f > all) all = f;
      if (f > mf && this.impByte[i] <= normByte) mf = f;
    }
    return mf > 0 ? mf : all;
  }

  private impBlock = -1;
  private nImp = 0;
  private impFreq = new Int32Array(0);
  private impByte = new Int32Array(0);

  private impactsOf(b: number): Impact[] {
    let cached = this.skip.impacts[b];
    if (!cached) {
      const r = new ByteReader(this.docData, this.skip.impactOffs[b]);
      const ni = r.varint();
      cached = [];
      for (let k = 0; k < ni; k++) cached.push(Object.freeze({ freq: r.varint(), norm: r.varint() }));
      this.skip.impacts[b] = cached;
    }
    return cached;
  }

  /**
   * First doc >= target whose bit is set in `bits` (a filter bitset, bit d of
   * word d >>> 5), or NO_MORE_DOCS: scans the decoded blocks directly, so docs
   * the filter rejects cost one bit test each. `target` may be <= docID().
   */
  advanceMatching(target: number, bits: Uint32Array): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    if (target > this.doc) this.advance(target);
    for (;;) {
      if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
      const docs = this.docs;
      const n = this.n;
      for (let i = this.idx; i < n; i++) {
        const d = docs[i];
        if ((bits[d >>> 5] >>> (d & 31)) & 1) {
          this.idx = i;
          return (this.doc = d);
        }
      }
      if (this.block + 1 >= this.nBlocks) return (this.doc = NO_MORE_DOCS);
      this.loadBlock(this.block + 1);
      this.idx = 0;
      this.doc = this.docs[0];
    }
  }

  /**
   * Bulk form of nextDoc()/freq() for term-at-a-time scoring: for each doc d
   * from the current one up to hi (exclusive), acc[d - lo] += boost · freq and
   * marks[d - lo] = 1; ends on the first doc >= hi (as nextDoc would).
   */
  addFreqs(lo: number, hi: number, acc: Float64Array, marks: Uint8Array, boost: number): void {
    if (this.doc === NO_MORE_DOCS || this.doc >= hi) return;
    if (this.idx < 0) this.nextDoc();
    for (;;) {
      if (this.freqsBlock !== this.block) this.decodeFreqs();
      const docs = this.docs;
      const freqs = this.freqs;
      const n = this.n;
      for (let i = this.idx; i < n; i++) {
        const d = docs[i];
        if (d >= hi) {
          this.idx = i;
          this.doc = d;
          return;
        }
        acc[d - lo] += boost * freqs[i];
        marks[d - lo] = 1;
      }
      if (this.block + 1 >= this.nBlocks) {
        this.idx = n;
        this.doc = NO_MORE_DOCS;
        return;
      }
      this.loadBlock(this.block + 1);
      this.idx = 0;
      this.doc = this.docs[0];
    }
  }

  /**
   * Bulk form of nextDoc()/advanceMatching() with freq(): writes every doc after the
   * current one (only those set in `bits`, when given) to outDocs and its freq to
   * outFreqs, from index `at`; returns the index after the last written. Ends on
   * NO_MORE_DOCS. The outputs must hold cost() entries from `at`. Blocks not loaded
   * yet are decoded into shared scratch (no per-iterator block arrays).
   */
  drain(bits: Uint32Array | null, outDocs: Int32Array, outFreqs: Int32Array, at: number): number {
    if (this.doc === NO_MORE_DOCS) return at;
    let b = 0;
    if (this.block >= 0) {
      // the rest of the loaded block
      for (let i = this.idx + 1; i < this.n; i++) {
        const d = this.docs[i];
        if (bits !== null && ((bits[d >>> 5] >>> (d & 31)) & 1) === 0) continue;
        if (this.freqsBlock !== this.block) this.decodeFreqs();
        outDocs[at] = d;
        outFreqs[at++] = this.freqs[i];
      }
      b = this.block + 1;
    }
    const docs = scratchDocs;
    const freqs = scratchFreqs;
    for (; b < this.nBlocks; b++) {
      const n = b === this.nBlocks - 1 ? this.meta.docFreq - b * BLOCK_SIZE : BLOCK_SIZE;
      const freqOff = unpackBlock(this.docData, this.docOffs[b], docs, n);
      blocksDecoded++;
      let prev = b === 0 ? -1 : this.lastDocs[b - 1];
      const from = at;
      for (let i = 0; i < n; i++) {
        prev += docs[i] + 1;
        if (bits === null || (bits[prev >>> 5] >>> (prev & 31)) & 1) {
          outDocs[at] = prev;
          outFreqs[at++] = i;
        }
      }
      if (at > from) {
        unpackBlock(this.docData, freqOff, freqs, n);
        for (let j = from; j < at; j++) outFreqs[j] = freqs[outFreqs[j]] + 1;
      }
    }
    this.idx = this.n;
    this.doc = NO_MORE_DOCS;
    return at;
  }

  positions(): Int32Array {
    if (!this.withPositions || this.idx < 0 || this.doc === NO_MORE_DOCS) return EMPTY_POSITIONS;
    if (this.freqsBlock !== this.block) this.decodeFreqs();
    const r = new ByteReader(this.posData, this.posCursor);
    const freqs = this.freqs;
    if (this.posDocIdx > this.idx) {
      // positions of an earlier doc of this block asked again: restart the block
      r.pos = this.posOffs[this.block];
      this.posDocIdx = 0;
    }
    while (this.posDocIdx < this.idx) {
      for (let k = freqs[this.posDocIdx]; k > 0; k--) r.varint();
      this.posDocIdx++;
    }
    const f = freqs[this.idx];
    const out = new Int32Array(f);
    let p = 0;
    for (let k = 0; k < f; k++) {
      p += r.varint();
      out[k] = p;
    }
    this.posCursor = r.pos;
    this.posDocIdx = this.idx + 1;
    return out;
  }

  /** First block >= from whose last doc is >= target (nBlocks when none). */
  private findBlock(target: number, from: number): number {
    const last = this.lastDocs;
    const n = this.nBlocks;
    let lo = from;
    if (lo >= n || last[lo] >= target) return lo;
    // gallop: targets are usually a few blocks ahead; then binary search in (lo, hi]
    let step = 1;
    let hi = lo + 1;
    while (hi < n && last[hi] < target) {
      lo = hi;
      step <<= 1;
      hi = lo + step;
    }
    if (hi > n) hi = n;
    lo++;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (last[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private decodeFreqs(): void {
    const n = this.n;
    const freqs = this.freqs;
    unpackBlock(this.docData, this.freqOff, freqs, n);
    for (let i = 0; i < n; i++) freqs[i] += 1;
    this.freqsBlock = this.block;
  }

  private loadBlock(b: number): void {
    const n = b === this.nBlocks - 1 ? this.meta.docFreq - b * BLOCK_SIZE : BLOCK_SIZE;
    if (this.docs.length < n) {
      // sized to the list: most postings lists are far shorter than a block
      const cap = Math.min(BLOCK_SIZE, this.meta.docFreq);
      this.docs = new Int32Array(cap);
      this.freqs = new Int32Array(cap);
    }
    const docs = this.docs;
    const pos = unpackBlock(this.docData, this.docOffs[b], docs, n);
    blocksDecoded++;
    let prev = b === 0 ? -1 : this.lastDocs[b - 1];
    for (let i = 0; i < n; i++) {
      prev += docs[i] + 1;
      docs[i] = prev;
    }
    this.freqOff = pos;
    this.block = b;
    this.n = n;
    if (this.withPositions) {
      this.posCursor = this.posOffs[b];
      this.posDocIdx = 0;
    }
  }
}
