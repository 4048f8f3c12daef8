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

/** Lookups remembered per term dictionary (one field of one segment). */
const RECENT_LOOKUPS = 4096;

/** Scratch bytes of findInBlock (single-threaded, never held across calls). */
let sharedScratch: Uint8Array = new Uint8Array(256);
/** The last term encoded: a lookup of one term across many segments and fields encodes it once. */
let lastTerm = '';
let lastBytes: Uint8Array = new Uint8Array(0);

function encodedTerm(term: string): Uint8Array {
  if (term !== lastTerm) {
    lastBytes = encodeUtf8(term);
    lastTerm = term;
  }
  return lastBytes;
}

/** Multi-byte varint at `pos`: [value, position after it]. */
function varintAt(buf: Uint8Array, pos: number): [number, number] {
  const r = new ByteReader(buf, pos);
  const v = r.varint();
  return [v, r.pos];
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

  /**
   * Recent lookups (hits and misses), oldest first: a term is often looked up twice in a
   * row (its df for statistics, then its postings) and common terms in every search.
   */
  private readonly recent = new Map<string, TermMeta | null>();

  /** Metadata of `term`, or null when absent. The returned object is shared: do not modify it. */
  lookup(term: string): TermMeta | null {
    const r = this.recent.get(term);
    if (r !== undefined) return r;
    const m = this.find(term);
    if (this.recent.size >= RECENT_LOOKUPS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(term, m);
    return m;
  }

  private find(term: string): TermMeta | null {
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
    if (first === term) return this.findInBlock(lo, encodedTerm(term), term, 1);
    return this.findInBlock(lo, encodedTerm(term), term, TERMS_PER_BLOCK);
  }

  /**
   * Scans at most `limit` entries of block `b` for the term. Entries are in JS
   * string order; the scan stops at the first entry past the term, decided on
   * the bytes (UTF-8 byte order agrees with UTF-16 order unless the first
   * differing bytes are both >= 0xEE; then the entry is decoded and compared).
   */
  private findInBlock(b: number, target: Uint8Array, term: string, limit: number): TermMeta | null {
    const data = this.data;
    let pos = this.blockIndex[b];
    const n = Math.min(TERMS_PER_BLOCK, limit, this.count - b * TERMS_PER_BLOCK);
    const tlen = target.length;
    let scratch = sharedScratch;
    let docStart = 0;
    let posStart = 0;
    for (let i = 0; i < n; i++) {
      let v: number;
      // varints inlined (ByteReader.varint): prefix, suffix, docFreq, ttf delta, doc delta, pos delta
      let prefix = data[pos++];
      if (prefix >= 0x80) [prefix, pos] = varintAt(data, pos - 1);
      let suffix = data[pos++];
      if (suffix >= 0x80) [suffix, pos] = varintAt(data, pos - 1);
      const len = prefix + suffix;
      if (len > scratch.length) {
        const next = new Uint8Array(len * 2);
        next.set(scratch.subarray(0, prefix));
        scratch = sharedScratch = next;
      }
      for (let k = 0; k < suffix; k++) scratch[prefix + k] = data[pos + k];
      pos += suffix;
      let docFreq = data[pos++];
      if (docFreq >= 0x80) [docFreq, pos] = varintAt(data, pos - 1);
      let ttfDelta = data[pos++];
      if (ttfDelta >= 0x80) [ttfDelta, pos] = varintAt(data, pos - 1);
      v = data[pos++];
      if (v >= 0x80) [v, pos] = varintAt(data, pos - 1);
      docStart = i === 0 ? v : docStart + v;
      v = data[pos++];
      if (v >= 0x80) [v, pos] = varintAt(data, pos - 1);
      posStart = i === 0 ? v : posStart + v;
      const m = len < tlen ? len : tlen;
      let k = 0;
      while (k < m && scratch[k] === target[k]) k++;
      if (k === m) {
        if (len === tlen) return { docFreq, totalTermFreq: ttfDelta + docFreq, docStart, posStart };
        if (len > tlen) return null; // the term is a proper prefix of the entry: entry > term
        continue;
      }
      if (scratch[k] > target[k]) {
        if ((scratch[k] < 0xee && target[k] < 0xee) || decodeUtf8(scratch, 0, len) > term) return null;
      }
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
