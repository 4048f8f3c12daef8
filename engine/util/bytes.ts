/**
 * Growable byte buffer (ByteWriter) and cursor (ByteReader) with LEB128 varints,
 * the primitive under every segment codec. Varints cover 0..2^53-1.
 */

import { giveScratch, takeScratch } from './scratch.ts';

const utf8Encoder = new TextEncoder();
const NO_BYTES = new Uint8Array(0);
const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

export class ByteWriter {
  buf: Uint8Array;
  length = 0;

  /**
   * `pooled`: the buffer comes from the flush scratch pool (scratch.ts), also when it grows,
   * and recycle() gives it back (a buffer outgrown is left to the GC: callers size by hints).
   */
  constructor(
    initial = 1024,
    private readonly pooled = false,
  ) {
    this.buf = pooled ? takeScratch(initial) : new Uint8Array(Math.max(16, initial));
  }

  ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = this.pooled ? takeScratch(cap) : new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /**
   * Gives a pooled writer's buffer back to the scratch pool and empties the writer. Neither the
   * writer's old bytes nor any view of them may be used afterwards.
   */
  recycle(): void {
    if (!this.pooled) return;
    giveScratch(this.buf);
    this.buf = NO_BYTES;
    this.length = 0;
  }

  byte(v: number): void {
    if (this.length >= this.buf.length) this.ensure(1);
    this.buf[this.length++] = v;
  }

  varint(v: number): void {
    this.ensure(8);
    const buf = this.buf;
    let p = this.length;
    if (v < 0x80000000) {
      while (v >= 0x80) {
        buf[p++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[p++] = v;
    } else {
      while (v >= 0x80) {
        buf[p++] = (v % 128) | 0x80;
        v = Math.floor(v / 128);
      }
      buf[p++] = v;
    }
    this.length = p;
  }

  bytes(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  /** Copies src[start, end) (no intermediate views for short ranges). */
  copy(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    if (n > 64) {
      this.buf.set(src.subarray(start, end), this.length);
    } else {
      const buf = this.buf;
      let p = this.length;
      for (let i = start; i < end; i++) buf[p++] = src[i];
    }
    this.length += n;
  }

  /** UTF-8 bytes of `s`, no length prefix (ASCII fast path). */
  utf8(s: string): void {
    const n = s.length;
    if (n > 256) {
      this.ensure(3 * n);
      this.length += utf8Encoder.encodeInto(s, this.buf.subarray(this.length)).written;
      return;
    }
    this.ensure(n);
    const buf = this.buf;
    let p = this.length;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[p++] = c;
    }
    if (i < n) {
      const rest = s.slice(i);
      this.length = p;
      this.ensure(rest.length * 3);
      p += utf8Encoder.encodeInto(rest, this.buf.subarray(p)).written;
    }
    this.length = p;
  }

  /** Length-prefixed UTF-8 string. */
  string(s: string): void {
    const data = utf8Encoder.encode(s);
    this.varint(data.length);
    this.bytes(data);
  }

  u32(v: number): void {
    this.ensure(4);
    const b = this.buf;
    const p = this.length;
    b[p] = v & 0xff;
    b[p + 1] = (v >>> 8) & 0xff;
    b[p + 2] = (v >>> 16) & 0xff;
    b[p + 3] = (v >>> 24) & 0xff;
    this.length += 4;
  }

  /** Pads with zeros to a multiple of `n`. */
  align(n: number): void {
    while (this.length % n !== 0) this.byte(0);
  }

  reset(): void {
    this.length = 0;
  }

  /** View of the written bytes (shares memory until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** Copy of the written bytes. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export class ByteReader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    pos = 0,
  ) {
    this.pos = pos;
  }

  byte(): number {
    return this.buf[this.pos++];
  }

  varint(): number {
    const buf = this.buf;
    let b = buf[this.pos++];
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let shift = 7;
    for (;;) {
      b = buf[this.pos++];
      if (shift < 28) {
        v |= (b & 0x7f) << shift;
      } else {
        v += (b & 0x7f) * 2 ** shift;
      }
      if (b < 0x80) return v;
      shift += 7;
    }
  }

  bytes(n: number): Uint8Array {
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    const n = this.varint();
    return decodeUtf8(this.bytes(n));
  }

  u32(): number {
    const b = this.buf;
    const p = this.pos;
    this.pos += 4;
    return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
  }
}

export function encodeUtf8(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}

/** UTF-8 decode with an ASCII fast path (term dictionaries are mostly ASCII). */
export function decodeUtf8(b: Uint8Array, start = 0, end = b.length): string {
  const n = end - start;
  if (n < 24) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (b[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      let s = '';
      for (let i = start; i < end; i++) s += String.fromCharCode(b[i]);
      return s;
    }
  }
  return utf8Decoder.decode(b.subarray(start, end));
}

/** Length of the common prefix of two byte arrays. */
export function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
