/**
 * One `binary_base64` string decoded while it arrives (push-body-scanner.ts): its
 * characters (JSON escapes already decoded) are checked as the schema checks a string
 * (standard Base64 alphabet, at most two `=` only at the end, a multiple of 4 long,
 * decoded size within the limit) and turned into bytes four characters at a time. Once
 * the string can no longer be stored (not Base64, or too large) it only counts its
 * length, for the 422 item's echo.
 */
import { randomBytes } from 'node:crypto';
import type { BlobWriter } from './blobs.ts';

const B64_SEGMENT = /^[A-Za-z0-9+/]*(=*)$/;

/** One `binary_base64` string being decoded into a blob. */
export class Base64Stream {
  /** 32 characters of valid Base64 (see spooled.ts). */
  readonly placeholder = randomBytes(24).toString('base64');
  /** UTF-16 length of the JSON string's value. */
  chars = 0;
  pad = 0;
  valid = true;
  tooLarge = false;
  carry = '';
  escape = '';
  writer: BlobWriter | null = null;
  readonly maxChars: number;

  constructor(
    readonly item: number,
    readonly maxBinaryBytes: number,
  ) {
    this.maxChars = 4 * Math.ceil(maxBinaryBytes / 3);
  }

  get storing(): boolean {
    return this.valid && !this.tooLarge;
  }

  /** Feeds characters of the string's value (escapes already decoded); returns decoded bytes to store. */
  feed(s: string): Buffer | null {
    if (!this.storing) {
      this.chars += s.length;
      return null;
    }
    this.chars += s.length;
    const m = B64_SEGMENT.exec(s);
    if (!m || (this.pad > 0 && m[1].length !== s.length)) {
      this.valid = false;
      return null;
    }
    this.pad += m[1].length;
    if (this.pad > 2) {
      this.valid = false;
      return null;
    }
    if (this.chars > this.maxChars) {
      this.tooLarge = true;
      return null;
    }
    const data = this.carry + (m[1].length > 0 ? s.slice(0, s.length - m[1].length) : s);
    const whole = data.length - (data.length % 4);
    this.carry = data.slice(whole);
    return whole > 0 ? Buffer.from(data.slice(0, whole), 'base64') : null;
  }

  /** The last bytes, once the string ended; sets the final verdict. */
  end(): Buffer | null {
    if (!this.storing) return null;
    if (this.chars % 4 !== 0) {
      this.valid = false;
      return null;
    }
    const decoded = (this.chars / 4) * 3 - this.pad;
    if (decoded > this.maxBinaryBytes) {
      this.tooLarge = true;
      return null;
    }
    return this.carry.length > 0 ? Buffer.from(this.carry + '='.repeat(this.pad), 'base64') : null;
  }
}

/** Decodes a complete JSON string escape (`\x` or `\uXXXX`) to its character. */
export function unescape(esc: string): string {
  switch (esc[1]) {
    case 'u':
      return String.fromCharCode(Number.parseInt(esc.slice(2), 16));
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    default:
      return esc[1];
  }
}

/** UTF-16 length of UTF-8 bytes. */
export function utf16Length(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  return n;
}
