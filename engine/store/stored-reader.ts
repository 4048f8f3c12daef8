/**
 * Stored-field store reader (format in stored-writer.ts): finds a doc's block by binary
 * search, inflates (inflater.ts) and decodes it once, and keeps the last few decoded blocks in a
 * small cache. A block not in the cache is first inflated and decoded only up to the asked
 * doc (docs are read one per block at random far more often than in sequence); the cache then
 * holds that prefix, and a later doc beyond it decodes the whole block.
 */
import { ByteReader } from '../util/bytes.ts';
import { EngineError } from '../errors.ts';
import { inflateBlock, inflatePrefix } from './inflater.ts';

interface Decoded {
  block: number;
  starts: Int32Array;
  /** The block's text, or (complete false) a prefix of it holding every doc whose end is below text.length. */
  text: string;
  complete: boolean;
}

/** Bytes inflated beyond the least a doc needs (a multi-byte character cut at the end decodes to one unit). */
const PREFIX_MARGIN = 8;
/** Typical text of a block (stored-writer.ts STORED_BLOCK_CHARS): the first guess of how far to inflate. */
const TYPICAL_BLOCK_CHARS = 8 * 1024;

const CACHE_BLOCKS = 8;

/** Where the last varintIn ended. */
let varintEnd = 0;

/**
 * The varint (at most 5 bytes) at `pos` of `bytes`, its end in varintEnd; -1 when it runs past
 * the bytes or is longer. (Module level: a closure in decodePrefix would be made per call.)
 */
function varintIn(bytes: Uint8Array, pos: number): number {
  let v = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (pos >= bytes.length) return -1;
    const x = bytes[pos++];
    v += (x & 0x7f) * 2 ** shift;
    if (x < 0x80) {
      varintEnd = pos;
      return v;
    }
  }
  return -1;
}
const decoder = new TextDecoder();

export class StoredReader {
  private cache: Decoded[] = [];

  constructor(
    private readonly data: Uint8Array,
    private readonly firstDocs: Int32Array,
    private readonly offsets: Float64Array,
    private readonly maxDoc: number,
  ) {}

  /** The stored string of `doc`. */
  doc(doc: number): string {
    if (doc < 0 || doc >= this.maxDoc) throw new EngineError('INVALID_DOCUMENT', `doc id out of range: ${doc}`);
    const b = this.blockOf(doc);
    const i = doc - this.firstDocs[b];
    const d = this.decode(b, i);
    return d.text.slice(d.starts[i], d.starts[i + 1]);
  }

  /** Docs in block b. */
  private docsIn(b: number): number {
    return (b + 1 < this.firstDocs.length ? this.firstDocs[b + 1] : this.maxDoc) - this.firstDocs[b];
  }

  /** Block b decoded up to doc i at least (a prefix), or null when only a whole decode can tell. */
  private decodePrefix(b: number, i: number): Decoded | null {
    const count = this.docsIn(b);
    // first guess: the header and doc i's share of a typical block (one step for most docs)
    const p = inflatePrefix(
      this.data.subarray(this.offsets[b], this.offsets[b + 1]),
      16 + 5 * count + Math.ceil((TYPICAL_BLOCK_CHARS * (i + 1)) / count),
    );
    if (p === null) return null;
    try {
      // header: doc count, then each doc's length in UTF-16 units (varints of at most 5 bytes)
      let bytes = p.bytes;
      varintEnd = 0;
      if (varintIn(bytes, 0) !== count) return null;
      const starts = new Int32Array(count + 1);
      for (let k = 0; k < count; k++) {
        const len = varintIn(bytes, varintEnd);
        if (len < 0) return null;
        starts[k + 1] = starts[k] + len;
      }
      const head = varintEnd;
      const target = starts[i + 1];
      let want = head + target + PREFIX_MARGIN;
      for (;;) {
        if (!p.more(want)) return null;
        bytes = p.bytes;
        const text = decoder.decode(bytes.subarray(head));
        if (p.ended) return text.length === starts[count] ? { block: b, starts, text, complete: true } : null;
        if (text.length > target) return { block: b, starts, text, complete: false };
        want = bytes.length + (target + 1 - text.length) + PREFIX_MARGIN;
      }
    } finally {
      p.end();
    }
  }

  private blockOf(doc: number): number {
    const f = this.firstDocs;
    let lo = 0;
    let hi = f.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (f[mid] <= doc) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Block b decoded at least up to its doc i (cached). */
  private decode(b: number, i: number): Decoded {
    const cache = this.cache;
    let short = false;
    for (let k = 0; k < cache.length; k++) {
      if (cache[k].block === b) {
        const hit = cache[k];
        cache.splice(k, 1);
        if (hit.complete || hit.text.length > hit.starts[i + 1]) {
          cache.unshift(hit);
          return hit;
        }
        short = true; // a prefix short of doc i (docs read in sequence): the whole block below
        break;
      }
    }
    const prefix = short ? null : this.decodePrefix(b, i);
    if (prefix !== null) {
      cache.unshift(prefix);
      if (cache.length > CACHE_BLOCKS) cache.pop();
      return prefix;
    }
    let bytes: Uint8Array;
    try {
      bytes = inflateBlock(this.data.subarray(this.offsets[b], this.offsets[b + 1]));
    } catch (err) {
      throw new EngineError('CORRUPT_INDEX', `stored block ${b} cannot be inflated`, { cause: err });
    }
    const r = new ByteReader(bytes);
    const n = r.varint();
    const starts = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) starts[i + 1] = starts[i] + r.varint();
    const text = decoder.decode(bytes.subarray(r.pos));
    if (text.length !== starts[n]) throw new EngineError('CORRUPT_INDEX', `stored block ${b}: length mismatch`);
    const entry = { block: b, starts, text, complete: true };
    cache.unshift(entry);
    if (cache.length > CACHE_BLOCKS) cache.pop();
    return entry;
  }
}
