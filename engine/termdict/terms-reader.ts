/**
 * Term dictionary reader for the format of terms-writer.ts: binary search over block
 * first terms (decoded lazily and cached), then a linear scan inside one block.
 */
import { ByteReader, decodeUtf8, encodeUtf8 } from '../util/bytes.ts';
import type { TermMeta } from '../postings/postings-writer.ts';
import { TERMS_PER_BLOCK } from './terms-writer.ts';

export interface TermEntry extends TermMeta {
  term: string;
}

/** Lookups remembered per term dictionary (one field of one segment). */
const RECENT_LOOKUPS = 4096;

/** Scratch bytes of findInBlock (single-threaded, never held across calls). */
let sharedScratch: Uint8Array = new Uint8Array(256);
/**
 * The last term encoded (UTF-8 in lastBytes[0, lastLength)): a lookup of one term across many
 * segments and fields encodes it once. ASCII terms are copied without an encoder call.
 */
let lastTerm = '';
let lastBytes: Uint8Array = new Uint8Array(64);
let lastLength = 0;

function encodeTerm(term: string): void {
  if (term === lastTerm) return;
  const n = term.length;
  let ascii = n <= lastBytes.length;
  for (let i = 0; i < n && ascii; i++) {
    const c = term.charCodeAt(i);
    if (c >= 0x80) ascii = false;
    else lastBytes[i] = c;
  }
  if (ascii) lastLength = n;
  else {
    const bytes = encodeUtf8(term);
    if (bytes.length > lastBytes.length) lastBytes = new Uint8Array(2 * bytes.length);
    lastBytes.set(bytes);
    lastLength = bytes.length;
  }
  lastTerm = term;
}

/** Position after the varint last read by varintAt (single-threaded, read right after the call). */
let varintEnd = 0;

/** The (multi-byte) varint at `pos` (ByteReader.varint's value); its end goes to varintEnd. No allocation. */
function varintAt(buf: Uint8Array, pos: number): number {
  let b = buf[pos++];
  let v = b & 0x7f;
  let mul = 128;
  while (b >= 0x80) {
    b = buf[pos++];
    v += (b & 0x7f) * mul;
    mul *= 128;
  }
  varintEnd = pos;
  return v;
}

/**
 * The first three UTF-16 code units of `s` as one number (0 past its end): keys compare as
 * the strings do wherever the keys differ; equal keys say nothing.
 */
function leadKey(s: string): number {
  const n = s.length;
  return (
    (n > 0 ? s.charCodeAt(0) : 0) * 4294967296 + (n > 1 ? s.charCodeAt(1) : 0) * 65536 + (n > 2 ? s.charCodeAt(2) : 0)
  );
}

export class TermsReader {
  private readonly firstTerms: (string | undefined)[];
  /** leadKey of each block's first term, NaN until computed. */
  private firstKeys: Float64Array | undefined;

  constructor(
    private readonly data: Uint8Array,
    private readonly blockIndex: Uint32Array,
    readonly count: number,
  ) {
    this.firstTerms = new Array(blockIndex.length);
  }

  /**
   * Recent lookups (hits and misses) in two generations: a term is often looked up twice in a
   * row (its df for statistics, then its postings) and common terms in every search. When the
   * current generation is full it becomes the older one (the older is dropped); a term found
   * only in the older generation moves to the current one. (Evicting the oldest entry of one
   * Map instead would scan the deleted entries at its front on every eviction.)
   */
  private recent = new Map<string, TermMeta | null>();
  private older = new Map<string, TermMeta | null>();

  /** Metadata of `term`, or null when absent. The returned object is shared: do not modify it. */
  lookup(term: string): TermMeta | null {
    const r = this.recent.get(term);
    if (r !== undefined) return r;
    let m = this.older.get(term);
    if (m === undefined) m = this.find(term);
    if (this.recent.size >= RECENT_LOOKUPS) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(term, m);
    return m;
  }

  private find(term: string): TermMeta | null {
    const nb = this.blockIndex.length;
    if (nb === 0) return null;
    // last block whose first term <= term: compared by their first code units where they differ
    const tk = leadKey(term);
    const keys = (this.firstKeys ??= new Float64Array(nb).fill(NaN));
    let lo = 0;
    let hi = nb - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      let k = keys[mid];
      if (k !== k) k = keys[mid] = leadKey(this.firstTerm(mid));
      if (k < tk || (k === tk && this.firstTerm(mid) <= term)) lo = mid;
      else hi = mid - 1;
    }
    const first = this.firstTerm(lo);
    if (first > term) return null;
    encodeTerm(term);
    return this.findInBlock(lo, lastBytes, lastLength, term, first === term ? 1 : TERMS_PER_BLOCK);
  }

  /**
   * Scans at most `limit` entries of block `b` for the term. Entries are in JS
   * string order; the scan stops at the first entry past the term, decided on
   * the bytes (UTF-8 byte order agrees with UTF-16 order unless the first
   * differing bytes are both >= 0xEE; then the entry is decoded and compared).
   */
  private findInBlock(b: number, target: Uint8Array, tlen: number, term: string, limit: number): TermMeta | null {
    const data = this.data;
    let pos = this.blockIndex[b];
    const n = Math.min(TERMS_PER_BLOCK, limit, this.count - b * TERMS_PER_BLOCK);
    let scratch = sharedScratch;
    let docStart = 0;
    let posStart = 0;
    for (let i = 0; i < n; i++) {
      let v: number;
      // varints inlined (ByteReader.varint): prefix, suffix, docFreq, ttf delta, doc delta, pos delta
      let prefix = data[pos++];
      if (prefix >= 0x80) {
        prefix = varintAt(data, pos - 1);
        pos = varintEnd;
      }
      let suffix = data[pos++];
      if (suffix >= 0x80) {
        suffix = varintAt(data, pos - 1);
        pos = varintEnd;
      }
      const len = prefix + suffix;
      if (len > scratch.length) {
        const next = new Uint8Array(len * 2);
        next.set(scratch.subarray(0, prefix));
        scratch = sharedScratch = next;
      }
      for (let k = 0; k < suffix; k++) scratch[prefix + k] = data[pos + k];
      pos += suffix;
      let docFreq = data[pos++];
      if (docFreq >= 0x80) {
        docFreq = varintAt(data, pos - 1);
        pos = varintEnd;
      }
      let ttfDelta = data[pos++];
      if (ttfDelta >= 0x80) {
        ttfDelta = varintAt(data, pos - 1);
        pos = varintEnd;
      }
      v = data[pos++];
      if (v >= 0x80) {
        v = varintAt(data, pos - 1);
        pos = varintEnd;
      }
      docStart = i === 0 ? v : docStart + v;
      v = data[pos++];
      if (v >= 0x80) {
        v = varintAt(data, pos - 1);
        pos = varintEnd;
      }
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
