/**
 * Bit-packing of small non-negative integer blocks (postings doc deltas and freqs).
 * Layout: one width byte w, then ceil(n*w/8) bytes, little-endian bit order.
 * Widths above 24 fall back to 4 raw bytes per value (w byte = 32).
 */
import type { ByteWriter } from './bytes.ts';

export function bitWidth(values: Int32Array, n: number): number {
  let or = 0;
  for (let i = 0; i < n; i++) or |= values[i];
  return or === 0 ? 0 : 32 - Math.clz32(or);
}

export function packBlock(out: ByteWriter, values: Int32Array, n: number): void {
  let w = bitWidth(values, n);
  if (w > 24) w = 32;
  out.byte(w);
  if (w === 0) return;
  if (w === 32) {
    out.ensure(n * 4);
    for (let i = 0; i < n; i++) out.u32(values[i]);
    return;
  }
  out.ensure(((n * w + 7) >>> 3) + 4);
  const buf = out.buf;
  let p = out.length;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < n; i++) {
    acc |= values[i] << bits;
    bits += w;
    while (bits >= 8) {
      buf[p++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) buf[p++] = acc & 0xff;
  out.length = p;
}

/** Decodes `n` values into `dst`, returns the offset after the block. */
export function unpackBlock(src: Uint8Array, pos: number, dst: Int32Array, n: number): number {
  const w = src[pos++];
  if (w === 0) {
    dst.fill(0, 0, n);
    return pos;
  }
  if (w === 32) {
    for (let i = 0; i < n; i++, pos += 4) {
      dst[i] = src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16) | (src[pos + 3] << 24);
    }
    return pos;
  }
  const mask = (1 << w) - 1;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < n; i++) {
    while (bits < w) {
      acc |= src[pos++] << bits;
      bits += 8;
    }
    dst[i] = acc & mask;
    acc >>>= w;
    bits -= w;
  }
  return pos;
}
