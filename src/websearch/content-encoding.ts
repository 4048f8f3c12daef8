/**
 * Decoders of a crawled page's Content-Encoding (gzip, deflate, br), as
 * lenient as browsers: `deflate` is read with or without its zlib wrapper
 * (servers send both), and a stream that ends before its trailer keeps what
 * decoded (flush instead of an "unexpected end of file" error). Corrupt data
 * still fails. Decoders respect backpressure, so the crawler's size cap stops
 * a decompression bomb after at most one buffer past the cap.
 */
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

/** Thrown for an encoding no decoder exists for. */
export class UnsupportedEncodingError extends Error {
  override name = 'UnsupportedEncodingError';
}

const ZLIB_LENIENT: zlib.ZlibOptions = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT: zlib.BrotliOptions = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

/** True when the first bytes are a zlib header (RFC 1950: method 8, header checksum a multiple of 31). */
const zlibHeader = (b: Buffer) => (b[0] & 0x0f) === 8 && (b.length < 2 || ((b[0] << 8) | b[1]) % 31 === 0);

/** `deflate`: zlib-wrapped or raw, decided on the first bytes. */
class DeflateDecoder extends Transform {
  private inner?: zlib.Inflate | zlib.InflateRaw;

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      if (chunk.length === 0) return callback();
      const inner = zlibHeader(chunk) ? zlib.createInflate(ZLIB_LENIENT) : zlib.createInflateRaw(ZLIB_LENIENT);
      inner.on('data', (out: Buffer) => {
        if (!this.push(out)) inner.pause();
      });
      inner.on('error', (err) => this.destroy(err));
      this.inner = inner;
    }
    this.inner.write(chunk, () => callback());
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inner) return callback();
    this.inner.once('end', () => callback());
    this.inner.end();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(err);
  }
}

/** A decoder for a Content-Encoding value, or null for none/identity; throws UnsupportedEncodingError. */
export function contentDecoder(encoding: string | undefined): Transform | null {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === '' || e === 'identity') return null;
  if (e === 'gzip' || e === 'x-gzip') return zlib.createGunzip(ZLIB_LENIENT);
  if (e === 'deflate') return new DeflateDecoder();
  if (e === 'br') return zlib.createBrotliDecompress(BROTLI_LENIENT);
  throw new UnsupportedEncodingError(`unsupported content encoding ${e}`);
}
