/**
 * One-byte field-length norms, Lucene's SmallFloat.intToByte4 / byte4ToInt:
 * lengths 0..23 are exact, larger ones keep 4 significant bits (lossy, rounded down).
 * Norms are stored as one byte per doc per text field; 0 means "field absent / empty".
 */

function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  const encoded = (i >>> shift) & 0x07;
  return encoded | ((shift + 1) << 3);
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  if (shift < 0) return bits;
  return (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(0x7fffffff);
const NUM_FREE_VALUES = 255 - MAX_INT4;

/** Encodes a length (clamped to 0..2^31-1) into one byte. */
export function intToByte4(i: number): number {
  if (i < 0) i = 0;
  if (i > 0x7fffffff) i = 0x7fffffff;
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

/** Decodes a norm byte back into a (lower-bound) length. */
export function byte4ToInt(b: number): number {
  const i = b & 0xff;
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + int4ToLong(i - NUM_FREE_VALUES);
}

/** Table of the 256 decoded lengths, for scoring loops. */
export const NORM_TABLE: Float64Array = (() => {
  const t = new Float64Array(256);
  for (let b = 0; b < 256; b++) t[b] = byte4ToInt(b);
  return t;
})();
