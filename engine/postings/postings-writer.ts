/**
 * Postings writer: per term, docs in blocks of 128 (BLOCK_SIZE).
 *
 * Doc stream, per term at `docStart`:
 *   varint skipLen, skip entries (one per block):
 *     varint lastDoc - previous block's lastDoc (first: lastDoc + 1), varint docBytes, varint posBytes,
 *     varint nImpacts, nImpacts x (varint freq, varint norm)   // Pareto frontier, freq ascending
 *   then the blocks: bit-packed (doc - prevDoc - 1), bit-packed (freq - 1)  (see bitpack.ts)
 * Position stream, per term at `posStart`, per doc in doc order: freq varints, delta-coded
 * within the doc. A block's positions are contiguous (posBytes long).
 * Impacts pair a freq with the smallest decoded field length among docs having at least that freq,
 * so BM25 of each pair is an upper bound for the block.
 */
import { ByteWriter } from '../util/bytes.ts';
import { packBlock } from './bitpack.ts';
import { intToByte4, NORM_TABLE } from '../similarity/norms.ts';

export const BLOCK_SIZE = 128;

export interface TermMeta {
  docFreq: number;
  totalTermFreq: number;
  /** Offset of the term in the doc stream. */
  docStart: number;
  /** Offset of the term in the position stream. */
  posStart: number;
}

export class PostingsWriter {
  readonly docOut: ByteWriter;
  readonly posOut: ByteWriter;
  private readonly blocks = new ByteWriter(1 << 12);
  private readonly skip = new ByteWriter(1 << 10);
  private readonly docs = new Int32Array(BLOCK_SIZE);
  private readonly freqs = new Int32Array(BLOCK_SIZE);
  private readonly lens = new Int32Array(BLOCK_SIZE);
  private readonly tmp = new Int32Array(BLOCK_SIZE);
  private n = 0;
  private lastDoc = -1;

  /**
   * Size hints (bytes) avoid regrowing the streams; they are only hints. The streams are flush
   * scratch (util/scratch.ts): recycle() once their bytes are copied out.
   */
  constructor(docBytesHint = 1 << 16, posBytesHint = 1 << 16) {
    this.docOut = new ByteWriter(docBytesHint, true);
    this.posOut = new ByteWriter(posBytesHint, true);
  }

  /** Gives the streams back to the scratch pool (their views must not be used afterwards). */
  recycle(): void {
    this.docOut.recycle();
    this.posOut.recycle();
  }

  private prevBlockLast = -1;
  private df = 0;
  private ttf = 0;
  private posStart = 0;
  private blockPosStart = 0;

  startTerm(): void {
    this.n = 0;
    this.lastDoc = -1;
    this.prevBlockLast = -1;
    this.df = 0;
    this.ttf = 0;
    this.blocks.reset();
    this.skip.reset();
    this.posStart = this.posOut.length;
    this.blockPosStart = this.posStart;
  }

  /**
   * Adds one doc (ascending) with its freq, decoded field length and positions
   * `positions[off .. off+freq)` (ascending; may be omitted when the field has none).
   */
  addDoc(doc: number, freq: number, fieldLength: number, positions: ArrayLike<number> | null, off: number): void {
    const i = this.n;
    this.docs[i] = doc;
    this.freqs[i] = freq;
    this.lens[i] = fieldLength;
    this.n = i + 1;
    this.lastDoc = doc;
    this.df++;
    this.ttf += freq;
    if (positions) writePositions(this.posOut, positions, off, freq);
    if (this.n === BLOCK_SIZE) this.flushBlock();
  }

  finishTerm(): TermMeta {
    if (this.n > 0) this.flushBlock();
    const docStart = this.docOut.length;
    this.docOut.varint(this.skip.length);
    this.docOut.copy(this.skip.buf, 0, this.skip.length);
    this.docOut.copy(this.blocks.buf, 0, this.blocks.length);
    return { docFreq: this.df, totalTermFreq: this.ttf, docStart, posStart: this.posStart };
  }

  private flushBlock(): void {
    const n = this.n;
    const { docs, freqs, tmp, blocks, skip } = this;
    const blockStart = blocks.length;
    let prev = this.prevBlockLast;
    for (let i = 0; i < n; i++) {
      tmp[i] = docs[i] - prev - 1;
      prev = docs[i];
    }
    packBlock(blocks, tmp, n);
    for (let i = 0; i < n; i++) tmp[i] = freqs[i] - 1;
    packBlock(blocks, tmp, n);
    const posEnd = this.posOut.length;
    skip.varint(this.lastDoc - this.prevBlockLast);
    skip.varint(blocks.length - blockStart);
    skip.varint(posEnd - this.blockPosStart);
    writeImpacts(skip, freqs, this.lens, n);
    this.prevBlockLast = this.lastDoc;
    this.blockPosStart = posEnd;
    this.n = 0;
  }
}

/** Appends positions[off, off + freq) (ascending, below 2^31) as delta varints. */
function writePositions(out: ByteWriter, positions: ArrayLike<number>, off: number, freq: number): void {
  out.ensure(5 * freq);
  const buf = out.buf;
  let p = out.length;
  let prev = 0;
  for (let k = off, end = off + freq; k < end; k++) {
    const pos = positions[k];
    let v = pos - prev;
    prev = pos;
    while (v >= 0x80) {
      buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[p++] = v;
  }
  out.length = p;
}

const bestByNorm = new Int32Array(256);
/** Norm bytes present in the block: a 256-bit set, then the bytes in ascending order. */
const touchedBits = new Int32Array(8);
const touched = new Int32Array(256);

/**
 * Writes the (freq, length) Pareto frontier of a block: bucket docs by norm byte (monotonic in
 * length) keeping the highest freq, then sweep lengths upwards keeping strictly rising freqs.
 */
function writeImpacts(out: ByteWriter, freqs: Int32Array, lens: Int32Array, n: number): void {
  if (n === 1) {
    out.varint(1);
    out.varint(freqs[0]);
    out.varint(lens[0]);
    return;
  }
  for (let i = 0; i < n; i++) {
    const b = intToByte4(lens[i]);
    const f = freqs[i];
    if (bestByNorm[b] === 0) touchedBits[b >>> 5] |= 1 << (b & 31);
    if (f > bestByNorm[b]) bestByNorm[b] = f;
  }
  const nt = touchedInOrder();
  let count = 0;
  let maxF = 0;
  for (let k = 0; k < nt; k++) {
    const f = bestByNorm[touched[k]];
    if (f > maxF) {
      maxF = f;
      count++;
    }
  }
  out.varint(count);
  maxF = 0;
  for (let k = 0; k < nt; k++) {
    const b = touched[k];
    const f = bestByNorm[b];
    if (f > maxF) {
      maxF = f;
      out.varint(f);
      out.varint(NORM_TABLE[b]);
    }
    bestByNorm[b] = 0;
  }
}

/** Moves the norm bytes of touchedBits (cleared) into `touched`, ascending; returns their count. */
function touchedInOrder(): number {
  let nt = 0;
  for (let w = 0; w < 8; w++) {
    let bits = touchedBits[w];
    touchedBits[w] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      touched[nt++] = (w << 5) + 31 - Math.clz32(low);
      bits ^= low;
    }
  }
  return nt;
}
