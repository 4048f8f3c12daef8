/**
 * Bit-packing of small non-negative integer blocks (postings doc deltas and freqs).
 * Layout: one width byte w, then ceil(n*w/8) bytes, little-endian bit order.
 * Widths above 24 fall back to 4 raw bytes per value (w byte = 32).
 */
import type { ByteWriter } from '../util/bytes.ts';

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
  const end = pos + ((n * w + 7) >>> 3);
  // Widths that divide 8 (dense postings: doc gaps and freqs of 1-3 bits): whole bytes, unrolled.
  if (w === 1) unpack1(src, pos, dst, n);
  else if (w === 2) unpack2(src, pos, dst, n);
  else if (w === 4) unpack4(src, pos, dst, n);
  else if (w === 8) for (let i = 0; i < n; i++) dst[i] = src[pos + i];
  else unpackAny(src, pos, end, w, dst, n);
  return end;
}

function unpack1(src: Uint8Array, pos: number, dst: Int32Array, n: number): void {
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const b = src[pos++];
    dst[i] = b & 1;
    dst[i + 1] = (b >>> 1) & 1;
    dst[i + 2] = (b >>> 2) & 1;
    dst[i + 3] = (b >>> 3) & 1;
    dst[i + 4] = (b >>> 4) & 1;
    dst[i + 5] = (b >>> 5) & 1;
    dst[i + 6] = (b >>> 6) & 1;
    dst[i + 7] = b >>> 7;
  }
  if (i < n) {
    const b = src[pos];
    for (let k = 0; i < n; i++, k++) dst[i] = (b >>> k) & 1;
  }
}

function unpack2(src: Uint8Array, pos: number, dst: Int32Array, n: number): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const b = src[pos++];
    dst[i] = b & 3;
    dst[i + 1] = (b >>> 2) & 3;
    dst[i + 2] = (b >>> 4) & 3;
    dst[i + 3] = b >>> 6;
  }
  if (i < n) {
    const b = src[pos];
    for (let k = 0; i < n; i++, k += 2) dst[i] = (b >>> k) & 3;
  }
}

function unpack4(src: Uint8Array, pos: number, dst: Int32Array, n: number): void {
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const b = src[pos++];
    dst[i] = b & 15;
    dst[i + 1] = b >>> 4;
  }
  if (i < n) dst[i] = src[pos] & 15;
}

/**
 * Any width up to 24: each value is read from the 2, 3 or 4 bytes that hold
 * it (its bit offset plus width fits in them), the last ones, whose window
 * would pass the block's end (`end`), byte by byte.
 */
function unpackAny(src: Uint8Array, pos: number, end: number, w: number, dst: Int32Array, n: number): void {
  const mask = (1 << w) - 1;
  const span = w <= 8 ? 2 : w <= 16 ? 3 : 4;
  let i = 0;
  let bit = 0;
  for (; i < n; i++, bit += w) {
    const b = pos + (bit >>> 3);
    if (b + span > end) break;
    let x = src[b] | (src[b + 1] << 8);
    if (span > 2) {
      x |= src[b + 2] << 16;
      if (span > 3) x |= src[b + 3] << 24;
    }
    dst[i] = (x >>> (bit & 7)) & mask;
  }
  for (; i < n; i++, bit += w) {
    let b = pos + (bit >>> 3);
    const sh = bit & 7;
    let x = 0;
    for (let got = 0; got < sh + w; got += 8) x |= src[b++] << got;
    dst[i] = (x >>> sh) & mask;
  }
}
