/**
 * 64-bit SimHash signatures over analyzed terms (Charikar): every distinct term of a
 * document votes with its xxh64 hash, weighted by 1 + floor(log2(tf)); bit i of the signature is
 * set when the weighted votes for bit i are positive. Near-duplicate documents have
 * signatures within a small Hamming distance (the engine uses <= 3).
 */
import { xxh64 } from '@node-rs/xxhash';

/** xxh64 of a term split into [high, low] 32-bit halves. */
export function termHash(term: string): [number, number] {
  const h = xxh64(term);
  return [Number(h >> 32n), Number(h & 0xffffffffn)];
}

/** 4 hash bits -> four 8-bit lanes holding 0/1 (SWAR counting of 4 bit positions at once). */
const NIBBLE_LANES = (() => {
  const t = new Int32Array(16);
  for (let n = 0; n < 16; n++) t[n] = (n & 1) | (((n >> 1) & 1) << 8) | (((n >> 2) & 1) << 16) | (((n >> 3) & 1) << 24);
  return t;
})();

/**
 * Accumulates weighted term hashes of one document at a time. Votes are counted as
 * "weight of terms with bit i set" against the total weight; four bit positions share one
 * 32-bit accumulator (8-bit lanes, spilled before they can overflow).
 */
export class SimHashBuilder {
  private readonly lanes = new Int32Array(16);
  private readonly counts = new Int32Array(64);
  private laneWeight = 0;
  private totalWeight = 0;

  reset(): void {
    this.lanes.fill(0);
    this.counts.fill(0);
    this.laneWeight = 0;
    this.totalWeight = 0;
  }

  /** Adds a term (by its hash halves) occurring `tf` times. */
  add(hi: number, lo: number, tf: number): void {
    const w = 32 - Math.clz32(tf);
    if (this.laneWeight + w > 255) this.spill();
    const l = this.lanes;
    const t = NIBBLE_LANES;
    for (let k = 0; k < 8; k++) {
      l[k] += t[(lo >>> (4 * k)) & 15] * w;
      l[8 + k] += t[(hi >>> (4 * k)) & 15] * w;
    }
    this.laneWeight += w;
    this.totalWeight += w;
  }

  private spill(): void {
    const l = this.lanes;
    const c = this.counts;
    for (let k = 0; k < 16; k++) {
      const v = l[k];
      const base = k < 8 ? 4 * k : 32 + 4 * (k - 8);
      c[base] += v & 255;
      c[base + 1] += (v >>> 8) & 255;
      c[base + 2] += (v >>> 16) & 255;
      c[base + 3] += (v >>> 24) & 255;
      l[k] = 0;
    }
    this.laneWeight = 0;
  }

  /** The signature (0n for a document without terms). */
  finish(): bigint {
    const [hi, lo] = this.halves();
    return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  }

  /** Appends the signature's high and low halves to `out` (no BigInt on the indexing path). */
  finishInto(out: { push(v: number): void }): void {
    const [hi, lo] = this.halves();
    out.push(hi);
    out.push(lo);
  }

  private halves(): [number, number] {
    if (this.totalWeight === 0) return [0, 0];
    this.spill();
    let lo = 0;
    let hi = 0;
    const c = this.counts;
    const total = this.totalWeight;
    for (let i = 0; i < 32; i++) {
      if (2 * c[i] > total) lo |= 1 << i;
      if (2 * c[32 + i] > total) hi |= 1 << i;
    }
    return [hi | 0, lo | 0];
  }
}

/** Signature of a list of terms (convenience for tests and small inputs). */
export function simhash(terms: Iterable<string>): bigint {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  const b = new SimHashBuilder();
  for (const [t, tf] of counts) {
    const [hi, lo] = termHash(t);
    b.add(hi, lo, tf);
  }
  return b.finish();
}

/** Number of differing bits of two signatures. */
export function hammingDistance(a: bigint, b: bigint): number {
  const x = BigInt.asUintN(64, a ^ b);
  const hi = Number(x >> 32n);
  const lo = Number(x & 0xffffffffn);
  return popcount32(hi) + popcount32(lo);
}

function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
