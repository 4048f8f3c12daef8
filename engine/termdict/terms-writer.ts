/**
 * Term dictionary writer (one per text field): terms in JS string order, front-coded
 * in blocks of TERMS_PER_BLOCK. The first term of a block is stored whole, so a reader
 * binary-searches the block index (byte offsets of block starts) without decoding the rest.
 *
 * Entry: varint prefixLen, varint suffixLen, suffix bytes, varint docFreq,
 *        varint totalTermFreq - docFreq, varint docStart, varint posStart
 * (docStart / posStart absolute at a block start, deltas from the previous entry inside a block).
 */
import { ByteWriter } from '../util/bytes.ts';
import type { TermMeta } from '../postings/postings-writer.ts';

export const TERMS_PER_BLOCK = 32;

export class TermsWriter {
  /** The entries (flush scratch once it outgrows its first 16 KB: see ByteWriter.recycle). */
  readonly data = new ByteWriter(1 << 14, true);
  private readonly blockOffsets: number[] = [];
  private prev = new ByteWriter(64);
  private cur = new ByteWriter(64);
  private prevDoc = 0;
  private prevPos = 0;
  count = 0;

  /** Adds the next term; terms must come in ascending JS string order. */
  add(term: string, meta: TermMeta): void {
    const cur = this.cur;
    cur.reset();
    cur.utf8(term);
    const bytes = cur.buf;
    const len = cur.length;
    const out = this.data;
    if (this.count % TERMS_PER_BLOCK === 0) {
      this.blockOffsets.push(out.length);
      out.varint(0);
      out.varint(len);
      out.copy(bytes, 0, len);
      out.varint(meta.docFreq);
      out.varint(meta.totalTermFreq - meta.docFreq);
      out.varint(meta.docStart);
      out.varint(meta.posStart);
    } else {
      const prev = this.prev.buf;
      const max = Math.min(len, this.prev.length);
      let p = 0;
      while (p < max && prev[p] === bytes[p]) p++;
      out.varint(p);
      out.varint(len - p);
      out.copy(bytes, p, len);
      out.varint(meta.docFreq);
      out.varint(meta.totalTermFreq - meta.docFreq);
      out.varint(meta.docStart - this.prevDoc);
      out.varint(meta.posStart - this.prevPos);
    }
    this.cur = this.prev;
    this.prev = cur;
    this.prevDoc = meta.docStart;
    this.prevPos = meta.posStart;
    this.count++;
  }

  /** Block start offsets (for the block index section). */
  index(): Uint32Array {
    return Uint32Array.from(this.blockOffsets);
  }
}
