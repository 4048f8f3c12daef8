/**
 * Stored-field store reader (format in stored-writer.ts): finds a doc's block by binary
 * search, inflates (inflater.ts) and decodes it once, and keeps the last few decoded blocks in a
 * small cache.
 */
import { ByteReader } from '../segment/bytes.ts';
import { EngineError } from '../errors.ts';
import { inflateBlock } from './inflater.ts';

interface Decoded {
  block: number;
  starts: Int32Array;
  text: string;
}

const CACHE_BLOCKS = 8;
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
    const d = this.decode(b);
    const i = doc - this.firstDocs[b];
    return d.text.slice(d.starts[i], d.starts[i + 1]);
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

  private decode(b: number): Decoded {
    const cache = this.cache;
    for (let i = 0; i < cache.length; i++) {
      if (cache[i].block === b) {
        const hit = cache[i];
        if (i > 0) {
          cache.splice(i, 1);
          cache.unshift(hit);
        }
        return hit;
      }
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
    const entry = { block: b, starts, text };
    cache.unshift(entry);
    if (cache.length > CACHE_BLOCKS) cache.pop();
    return entry;
  }
}
