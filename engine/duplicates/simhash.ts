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

/**
 * Accumulates weighted term hashes of one document at a time. Votes are counted as
 * "weight of terms with bit i set" against the total weight, in bit-sliced counters: level j of
 * a half holds bit j of the 32 counts of that half, so a term adds its hash to all 32 counts at
 * once with a ripple carry (about two levels touched on average). A document's total weight is
 * at most its token count (1 + floor(log2 tf) <= tf), so 31 levels never overflow.
 */
export class SimHashBuilder {
  private readonly hiLevels = new Int32Array(LEVELS);
  private readonly loLevels = new Int32Array(LEVELS);
  /** Levels in use (at most LEVELS). */
  private depth = 0;
  private totalWeight = 0;

  reset(): void {
    this.hiLevels.fill(0, 0, this.depth);
    this.loLevels.fill(0, 0, this.depth);
    this.depth = 0;
    this.totalWeight = 0;
  }

  /** Adds a term (by its hash halves) occurring `tf` times. */
  add(hi: number, lo: number, tf: number): void {
    const w = 32 - Math.clz32(tf);
    this.totalWeight += w;
    if (w === 1) {
      this.addAt(hi, lo, 0);
      return;
    }
    for (let j = 0; j < 6; j++) if ((w >>> j) & 1) this.addAt(hi, lo, j);
  }

  /** Adds 2^level to the counts of the bits set in hi / lo. */
  private addAt(hi: number, lo: number, level: number): void {
    const h = rippleAdd(this.hiLevels, hi, level);
    const l = rippleAdd(this.loLevels, lo, level);
    const d = h > l ? h : l;
    if (d > this.depth) this.depth = d;
  }

  /** The signature (0n for a document without terms). */
  finish(): bigint {
    return (BigInt(this.half(this.hiLevels) >>> 0) << 32n) | BigInt(this.half(this.loLevels) >>> 0);
  }

  /** Appends the signature's high and low halves to `out` (no BigInt on the indexing path). */
  finishInto(out: { push(v: number): void }): void {
    out.push(this.half(this.hiLevels));
    out.push(this.half(this.loLevels));
  }

  /** Bits of a half whose count c has 2c > total weight, i.e. c > floor(total / 2) (a bit-sliced compare). */
  private half(levels: Int32Array): number {
    const k = Math.floor(this.totalWeight / 2);
    let gt = 0;
    let eq = -1;
    for (let j = LEVELS - 1; j >= 0; j--) {
      const c = levels[j];
      if ((k >>> j) & 1) eq &= c;
      else {
        gt |= eq & c;
        eq &= ~c;
      }
    }
    return gt | 0;
  }
}

/** Bit-sliced counter levels per half (counts below 2^31). */
const LEVELS = 31;

/** Adds mask x at `level` of bit-sliced counters; returns the number of levels now in use there. */
function rippleAdd(levels: Int32Array, x: number, level: number): number {
  let carry = x | 0;
  let j = level;
  while (carry !== 0) {
    const c = levels[j];
    levels[j] = c ^ carry;
    carry = c & carry;
    j++;
  }
  return j;
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
