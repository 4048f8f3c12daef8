/**
 * Byte-to-string decoding shared by the text-based extractors: BOM sniffing
 * (UTF-8, UTF-16 LE/BE), declared charsets through TextDecoder, and a binary-data check
 * used by the fallback for unknown media types.
 */
import { ExtractionError } from './errors.ts';

/** windows-1252 characters of bytes 0x80-0x9F (the five unassigned bytes map to themselves, as in WHATWG). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** A decoder for one charset. */
export interface CharsetDecoder {
  decode(bytes: Uint8Array): string;
}

/**
 * `new TextDecoder(label)`, except that windows-1252 (which the WHATWG labels latin1 and
 * iso-8859-1 also name) is decoded here: some Node releases decode it as ISO-8859-1 and turn
 * the euro sign, typographic quotes and dashes (0x80-0x9F) into C1 control characters.
 * Throws RangeError for unknown labels, like TextDecoder.
 */
export function charsetDecoder(label: string): CharsetDecoder {
  const td = new TextDecoder(label);
  if (td.encoding !== 'windows-1252') return td;
  return {
    decode(bytes: Uint8Array): string {
      const latin = td.decode(bytes);
      return /[\u0080-\u009f]/.test(latin)
        ? latin.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80])
        : latin;
    },
  };
}

/** Detected encoding from a byte-order mark, with the BOM length to skip. */
export function sniffBom(bytes: Uint8Array): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; skip: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: 'utf-8', skip: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return null;
}

/** Normalises charset labels; unknown labels return null. */
export function normaliseCharset(label: string | undefined): string | null {
  if (!label) return null;
  const l = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  try {
    return new TextDecoder(l).encoding;
  } catch {
    return null;
  }
}

/**
 * Decodes bytes as text: a BOM wins, then the declared charset, then UTF-8 when valid or
 * nearly so (stray bytes replaced), else windows-1252 (a superset of Latin-1 that never fails).
 */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  const bom = sniffBom(bytes);
  if (bom) return new TextDecoder(bom.encoding).decode(bytes.subarray(bom.skip));
  const declared = normaliseCharset(charset);
  if (declared) return charsetDecoder(declared).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Mostly UTF-8 with a few stray legacy bytes stays UTF-8 (at most 1 in 4 non-ASCII characters invalid;
    // windows-1252 text makes nearly all of them invalid).
    const utf8 = new TextDecoder('utf-8').decode(bytes);
    let nonAscii = 0;
    let invalid = 0;
    for (let i = 0; i < utf8.length; i++) {
      const c = utf8.charCodeAt(i);
      if (c >= 0x80) {
        nonAscii++;
        if (c === 0xfffd) invalid++;
      }
    }
    return invalid * 4 <= nonAscii ? utf8 : charsetDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The leading bytes that decode to at least `maxChars` characters (a character takes at most 4 bytes in
 * UTF-8 and UTF-16), so that a text far over the output limit is never decoded in full. The cut never
 * splits a UTF-8 sequence and stays even for UTF-16; bytes under the bound are returned whole.
 */
export function textPrefix(bytes: Uint8Array, maxChars: number, charset?: string): Uint8Array {
  let cut = maxChars * 4 + 4;
  if (bytes.length <= cut) return bytes;
  const bom = sniffBom(bytes);
  const utf16 = bom ? bom.encoding !== 'utf-8' : (normaliseCharset(charset) ?? '').startsWith('utf-16');
  if (!utf16) while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut);
}

/**
 * True when the bytes look like text: a UTF-16 BOM, or no NUL bytes and few control
 * characters in the first 8 KB (at most 2 % outside tab, newline, carriage return, form feed).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  const bom = sniffBom(bytes);
  if (bom && bom.encoding !== 'utf-8') return true;
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0) return false;
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) control++;
  }
  return control <= n * 0.02;
}

/** Decodes text or throws UNSUPPORTED when the data looks binary. */
export function decodeTextStrict(bytes: Uint8Array, charset: string | undefined, what: string): string {
  if (!looksLikeText(bytes)) throw new ExtractionError('UNSUPPORTED', `${what}: data looks binary, not text`);
  return decodeText(bytes, charset);
}
