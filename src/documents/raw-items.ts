/**
 * Byte ranges of the items of a bulk push body (`{"documents": [item, ...]}`), so
 * that the durable queue can store each accepted item's JSON as it arrived
 * instead of serializing it again.
 *
 * Contract: called only on bytes that JSON.parse accepted. Answers the ranges of
 * the elements of the value JSON.parse uses (the last top-level `documents` key),
 * or null whenever it cannot be sure (a top-level key with escapes, no array,
 * trailing data); the caller then serializes. Pure, no allocation per byte: string
 * bodies are skipped with `indexOf` of the closing quote.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOCUMENTS = new TextEncoder().encode('documents');

export interface ItemSpans {
  /** starts[i], ends[i]: byte range of item i. */
  starts: number[];
  ends: number[];
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Index just after the string whose opening quote is at `at`. */
function skipString(b: Uint8Array, at: number): number {
  let i = at + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, i);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; k >= i && b[k] === BACKSLASH; k--) slashes++;
    if ((slashes & 1) === 0) return q + 1;
    i = q + 1;
  }
}

/** Index just after the JSON value starting at `at` (no leading whitespace). */
function skipValue(b: Uint8Array, at: number): number {
  const c = b[at];
  if (c === QUOTE) return skipString(b, at);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let i = at;
    while (i < b.length) {
      const x = b[i];
      if (x === QUOTE) {
        i = skipString(b, i);
        if (i < 0) return -1;
        continue;
      }
      if (x === 0x7b || x === 0x5b) depth++;
      else if (x === 0x7d || x === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  let i = at;
  while (i < b.length) {
    const x = b[i];
    if (x === 0x2c || x === 0x7d || x === 0x5d || isSpace(x)) break;
    i++;
  }
  return i;
}

function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && isSpace(b[i])) i++;
  return i;
}

function isDocumentsKey(b: Uint8Array, start: number, end: number): boolean {
  if (end - start !== DOCUMENTS.length) return false;
  for (let k = 0; k < DOCUMENTS.length; k++) if (b[start + k] !== DOCUMENTS[k]) return false;
  return true;
}

/** The item ranges of the `documents` array in a bulk push body, or null (see the module contract). */
export function documentItemSpans(b: Uint8Array): ItemSpans | null {
  let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  i = skipSpace(b, i);
  if (b[i] !== 0x7b) return null;
  i = skipSpace(b, i + 1);
  let found: ItemSpans | null = null;
  if (b[i] === 0x7d) return null;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = skipString(b, i);
    if (keyEnd < 0 || b.subarray(i + 1, keyEnd - 1).includes(BACKSLASH)) return null;
    const isDocuments = isDocumentsKey(b, i + 1, keyEnd - 1);
    i = skipSpace(b, keyEnd);
    if (b[i] !== 0x3a) return null;
    i = skipSpace(b, i + 1);
    if (isDocuments) {
      if (b[i] !== 0x5b) return null; // the single form: not handled here
      const spans: ItemSpans = { starts: [], ends: [] };
      i = skipSpace(b, i + 1);
      if (b[i] !== 0x5d) {
        for (;;) {
          const end = skipValue(b, i);
          if (end < 0) return null;
          spans.starts.push(i);
          spans.ends.push(end);
          i = skipSpace(b, end);
          if (b[i] === 0x2c) i = skipSpace(b, i + 1);
          else if (b[i] === 0x5d) break;
          else return null;
        }
      }
      i++;
      found = spans; // a later duplicate key replaces it, as in JSON.parse
    } else {
      i = skipValue(b, i);
      if (i < 0) return null;
    }
    i = skipSpace(b, i);
    if (b[i] === 0x2c) i = skipSpace(b, i + 1);
    else if (b[i] === 0x7d) break;
    else return null;
  }
  return skipSpace(b, i + 1) === b.length ? found : null;
}
