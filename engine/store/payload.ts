/**
 * Per-document stored payload: language, original text fields and the caller's stored JSON,
 * serialised as one string. Text is written raw with its length (no JSON escaping of large
 * bodies); only the small `stored` object goes through JSON.
 *
 *   <lang: 'd'|'e'><fieldCount>\u0001 ( <name>\u0001<length>\u0001<text> )* <stored JSON>
 */
import { EngineError } from '../errors.ts';
import type { Language } from '../analysis/types.ts';

export interface StoredPayload {
  l: Language;
  t: Record<string, string>;
  s: Record<string, unknown>;
}

const SEP = '\u0001';

export function encodePayload(lang: Language, text: Record<string, string>, stored: Record<string, unknown>): string {
  const names = Object.keys(text);
  let out = (lang === 'en' ? 'e' : 'd') + names.length + SEP;
  for (const name of names) {
    const t = text[name];
    out += name + SEP + t.length + SEP + t;
  }
  return out + JSON.stringify(stored);
}

/** Receives UTF-16 strings to append as UTF-8 (a ByteWriter). */
export interface Utf8Sink {
  utf8(s: string): void;
}

/**
 * Appends encodePayload(lang, text, stored) to `out` piece by piece, without building the
 * string; returns its length in UTF-16 units. The bytes are the UTF-8 encoding of the
 * whole string (pieces join at ASCII characters, so no surrogate pair is split).
 */
export function writePayload(
  out: Utf8Sink,
  lang: Language,
  text: Record<string, string>,
  stored: Record<string, unknown>,
): number {
  const names = Object.keys(text);
  let head = (lang === 'en' ? 'e' : 'd') + names.length + SEP;
  let length = 0;
  for (const name of names) {
    const t = text[name];
    head += name + SEP + t.length + SEP;
    out.utf8(head);
    out.utf8(t);
    length += head.length + t.length;
    head = '';
  }
  const tail = head + JSON.stringify(stored);
  out.utf8(tail);
  return length + tail.length;
}

/** The error of an unreadable payload (module level: a closure in decodePayload would be made per call). */
function bad(): EngineError {
  return new EngineError('CORRUPT_INDEX', 'stored document payload unreadable');
}

export function decodePayload(s: string): StoredPayload {
  const l: Language = s[0] === 'e' ? 'en' : 'de';
  let p = s.indexOf(SEP, 1);
  if (p < 0) throw bad();
  const count = Number(s.slice(1, p));
  p++;
  const t: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const a = s.indexOf(SEP, p);
    const b = a < 0 ? -1 : s.indexOf(SEP, a + 1);
    if (b < 0) throw bad();
    const len = Number(s.slice(a + 1, b));
    if (!Number.isInteger(len) || b + 1 + len > s.length) throw bad();
    t[s.slice(p, a)] = s.slice(b + 1, b + 1 + len);
    p = b + 1 + len;
  }
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(s.slice(p)) as Record<string, unknown>;
  } catch (err) {
    throw new EngineError('CORRUPT_INDEX', 'stored document payload unreadable', { cause: err });
  }
  return { l, t, s: stored };
}
