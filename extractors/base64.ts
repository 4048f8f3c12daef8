/**
 * Decoding of `body.binary_base64`: standard Base64 (line breaks tolerated), size checked
 * against maxInputBytes from the encoded length before any bytes are allocated.
 */
import { Buffer } from 'node:buffer';
import { ExtractionError } from './errors.ts';
import { DEFAULT_MAX_BINARY_BYTES } from './limits.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes standard Base64; TOO_LARGE over `maxBytes` decoded bytes, CORRUPT for invalid Base64. */
export function decodeBase64Body(b64: string, maxBytes: number = DEFAULT_MAX_BINARY_BYTES): Uint8Array {
  const compact = /[\r\n\t ]/.test(b64) ? b64.replace(/[\r\n\t ]+/g, '') : b64;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const decodedLength = Math.floor((compact.length * 3) / 4) - padding;
  if (decodedLength > maxBytes) {
    throw new ExtractionError(
      'TOO_LARGE',
      `decoded binary of ${decodedLength} bytes exceeds the limit of ${maxBytes} bytes`,
    );
  }
  if (compact.length % 4 === 1 || !BASE64.test(compact))
    throw new ExtractionError('CORRUPT', 'binary_base64 is not valid standard Base64');
  const buf = Buffer.from(compact, 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
