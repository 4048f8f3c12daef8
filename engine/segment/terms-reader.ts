/**
 * Term dictionary reader for the format of terms-writer.ts: binary search over block
 * first terms (decoded lazily and cached), then a linear scan inside one block.
 */
import { ByteReader, decodeUtf8, encodeUtf8 } from './bytes.ts';
import type { TermMeta } from './postings-writer.ts';
import { TERMS_PER_BLOCK } from './terms-writer.ts';

export interface TermEntry extends TermMeta {
  term: string;
}

export class TermsReader {
  private readonly firstTerms: (string | undefined)[];

  constructor(
    private readonly data: Uint8Array,
    private readonly blockIndex: Uint32Array,
    readonly count: number,
  ) {
    this.firstTerms = new Array(blockIndex.length);
  }

  lookup(term: string): TermMeta | null {
    const nb = this.blockIndex.length;
    if (nb === 0) return null;
    // last block whose first term <= term
    let lo = 0;
    let hi = nb - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.firstTerm(mid) <= term) lo = mid;
      else hi = mid - 1;
    }
    const first = this.firstTerm(lo);
    if (first > term) return null;
    return this.findInBlock(lo, encodeUtf8(term), term);
  }

  /** Scans block `b` for the term (compared as decoded strings, so the JS sort order holds). */
  private findInBlock(b: number, target: Uint8Array, term: string): TermMeta | null {
    const data = this.data;
    const r = new ByteReader(data, this.blockIndex[b]);
    const n = Math.min(TERMS_PER_BLOCK, this.count - b * TERMS_PER_BLOCK);
    let scratch = new Uint8Array(Math.max(64, target.length));
    let docStart = 0;
    let posStart = 0;
    for (let i = 0; i < n; i++) {
      const prefix = r.varint();
      const suffix = r.varint();
      const len = prefix + suffix;
      if (len > scratch.length) {
        const next = new Uint8Array(len * 2);
        next.set(scratch.subarray(0, prefix));
        scratch = next;
      }
      for (let k = 0; k < suffix; k++) scratch[prefix + k] = data[r.pos + k];
      r.pos += suffix;
      const docFreq = r.varint();
      const ttfDelta = r.varint();
      if (i === 0) {
        docStart = r.varint();
        posStart = r.varint();
      } else {
        docStart += r.varint();
        posStart += r.varint();
      }
      if (len === target.length) {
        let eq = true;
        for (let k = 0; k < len; k++) {
          if (scratch[k] !== target[k]) {
            eq = false;
            break;
          }
        }
        if (eq) return { docFreq, totalTermFreq: ttfDelta + docFreq, docStart, posStart };
      }
      // stop early once past the term in sort order (only decode when the first byte says so)
      if (scratch[0] > target[0] && decodeUtf8(scratch, 0, len) > term) return null;
    }
    return null;
  }

  /** Entries in order, starting at the first term >= `from` (all when omitted). */
  *entries(from?: string): Generator<TermEntry> {
    const nb = this.blockIndex.length;
    let b = 0;
    if (from !== undefined && nb > 0) {
      let lo = 0;
      let hi = nb - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (this.firstTerm(mid) <= from) lo = mid;
        else hi = mid - 1;
      }
      b = lo;
    }
    for (; b < nb; b++) {
      for (const e of this.scanBlock(b)) {
        if (from !== undefined && e.term < from) continue;
        yield e;
      }
    }
  }

  private firstTerm(b: number): string {
    let t = this.firstTerms[b];
    if (t === undefined) {
      const r = new ByteReader(this.data, this.blockIndex[b]);
      r.varint();
      const len = r.varint();
      t = decodeUtf8(this.data, r.pos, r.pos + len);
      this.firstTerms[b] = t;
    }
    return t;
  }

  private *scanBlock(b: number): Generator<TermEntry> {
    const r = new ByteReader(this.data, this.blockIndex[b]);
    const n = Math.min(TERMS_PER_BLOCK, this.count - b * TERMS_PER_BLOCK);
    let scratch = new Uint8Array(64);
    let prevLen = 0;
    let docStart = 0;
    let posStart = 0;
    for (let i = 0; i < n; i++) {
      const prefix = r.varint();
      const suffix = r.varint();
      const len = prefix + suffix;
      if (len > scratch.length) {
        const next = new Uint8Array(Math.max(len, scratch.length * 2));
        next.set(scratch.subarray(0, prevLen));
        scratch = next;
      }
      scratch.set(this.data.subarray(r.pos, r.pos + suffix), prefix);
      r.pos += suffix;
      prevLen = len;
      const docFreq = r.varint();
      const totalTermFreq = r.varint() + docFreq;
      if (i === 0) {
        docStart = r.varint();
        posStart = r.varint();
      } else {
        docStart += r.varint();
        posStart += r.varint();
      }
      yield { term: decodeUtf8(scratch, 0, len), docFreq, totalTermFreq, docStart, posStart };
    }
  }
}
