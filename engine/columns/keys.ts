/**
 * Doc keys of a segment: writer and reader.
 * Sections: kblob (UTF-8 keys back to back), koff (Uint32[maxDoc+1]),
 * khi / klo / kdoc (a 64-bit hash of each key as two Uint32 halves plus the doc, sorted by the
 * high half) so that a key is found by a binary search over typed arrays without decoding strings.
 * The hash (hashKey) is computed in JS over UTF-16 code units: it is on the hot path of every add
 * (update-by-key lookups), where a native call per key would cost more than the hashing.
 */
import { ByteWriter, decodeUtf8 } from '../util/bytes.ts';

export interface KeySections {
  kblob: Uint8Array;
  koff: Uint32Array;
  khi: Uint32Array;
  klo: Uint32Array;
  kdoc: Int32Array;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 64-bit key hash as [high, low] unsigned 32-bit halves (two independent FNV-1a style lanes, avalanched). */
export function hashKey(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [fmix32(a ^ Math.imul(b, 0x27d4eb2d)), fmix32(b + a)];
}

/** Builds the key sections for docs 0..keys.length-1. */
export function writeKeys(keys: readonly string[]): KeySections {
  const n = keys.length;
  const blob = new ByteWriter(n * 24 + 16);
  const koff = new Uint32Array(n + 1);
  const his = new Uint32Array(n);
  const los = new Uint32Array(n);
  for (let d = 0; d < n; d++) {
    blob.utf8(keys[d]);
    koff[d + 1] = blob.length;
    const [hi, lo] = hashKey(keys[d]);
    his[d] = hi;
    los[d] = lo;
  }
  let order: Int32Array;
  if (n < 1 << 21) {
    // hi * 2^21 + doc is exact in a double: one native numeric sort
    const packed = new Float64Array(n);
    for (let d = 0; d < n; d++) packed[d] = his[d] * 2097152 + d;
    packed.sort();
    order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = packed[i] % 2097152;
  } else {
    order = new Int32Array(n);
    for (let d = 0; d < n; d++) order[d] = d;
    order.sort((a, b) => his[a] - his[b] || a - b);
  }
  const khi = new Uint32Array(n);
  const klo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    khi[i] = his[order[i]];
    klo[i] = los[order[i]];
  }
  return { kblob: blob.toBytes(), koff, khi, klo, kdoc: order };
}

const NONE: readonly number[] = Object.freeze([]);

export class KeysReader {
  constructor(private readonly s: KeySections) {}

  /** Per bucket of the hashes' top bits (about 4 keys each), the index of its first entry in khi; built on the first find. */
  private starts: Uint32Array | null = null;
  private shift = 32;

  private buildStarts(): Uint32Array {
    const khi = this.s.khi;
    const n = khi.length;
    const bits = n < 8 ? 1 : Math.min(24, 31 - Math.clz32(n) - 1);
    const shift = 32 - bits;
    const starts = new Uint32Array((1 << bits) + 1);
    let i = 0;
    for (let bucket = 0; bucket <= 1 << bits; bucket++) {
      while (i < n && khi[i] >>> shift < bucket) i++;
      starts[bucket] = i;
    }
    this.shift = shift;
    return (this.starts = starts);
  }

  key(doc: number): string {
    return decodeUtf8(this.s.kblob, this.s.koff[doc], this.s.koff[doc + 1]);
  }

  /**
   * Every doc whose key is `key` (ascending); several only when updates left deleted copies.
   * The result is shared and empty when the key is absent (the common case of an add): do not modify it.
   */
  find(key: string, hash: [number, number] = hashKey(key)): readonly number[] {
    const { khi, klo, kdoc } = this.s;
    const [hi, lo] = hash;
    // the bucket of hi's top bits bounds the binary search to a few entries (hashes are uniform)
    const starts = this.starts ?? this.buildStarts();
    const bucket = hi >>> this.shift;
    let a = starts[bucket];
    let b = starts[bucket + 1];
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (khi[mid] < hi) a = mid + 1;
      else b = mid;
    }
    let out: number[] | null = null;
    for (let i = a; i < khi.length && khi[i] === hi; i++) {
      if (klo[i] === lo && this.key(kdoc[i]) === key) (out ??= []).push(kdoc[i]);
    }
    return out === null ? NONE : out.sort((x, y) => x - y);
  }
}
