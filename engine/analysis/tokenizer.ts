/**
 * Unicode tokenizer: splits text into words (runs of letters, digits and marks
 * of any script; an apostrophe between two word characters stays inside the
 * word, as in UAX #29, and so do invisible format characters such as the soft
 * hyphen, flagged F_IGNORABLE), single-character words for ideographs, and
 * technical compounds: words joined by '-', '.' or '_' ("foo-bar.baz", "config_file.ts",
 * "v1.2.3") are reported whole, before their parts. Offsets are UTF-16 indexes
 * into the original text. The scanner is a single charCodeAt pass that also
 * hashes ASCII words (lower-cased) for the analyzer's memo table; it writes
 * records into a reusable TokenStream (scanInto), and tokenize() replays them
 * to a callback sink.
 */
import { BMP_CLASS as BMP_CLASS_IMPORT, classifyAstral as classifyAstralImport } from './char-class.ts';

// Local copies: module bindings may be compiled to getters, too slow for the scanner's inner loop.
const BMP_CLASS: Uint8Array = BMP_CLASS_IMPORT;
const classifyAstral: (cp: number) => number = classifyAstralImport;
const NONE = 0;
const WORD = 1;
const IDEO = 2;
const IGNORABLE = 3;

/** Flag: the word has a character outside ASCII (needs full lower-casing/folding). */
export const F_NON_ASCII = 1;
/** Flag: the word has an ASCII upper-case letter. */
export const F_UPPER = 2;
/** Flag: the word contains a typographic apostrophe U+2019 (normalised to '). */
export const F_CURLY_APOS = 4;
/** Flag: the word contains ignorable format characters (soft hyphen, ZWJ …), left out of its term. */
export const F_IGNORABLE = 16;

/** Most parts a technical compound may have to be reported whole. */
export const MAX_COMPOUND_PARTS = 8;
/** Longest technical compound (UTF-16 units) reported whole. */
export const MAX_COMPOUND_LENGTH = 64;

/** Receives the tokenizer's output in text order. */
export interface TokenSink {
  /** A technical compound spanning [start, end) with `parts` parts; its parts follow as word() calls. */
  compound(start: number, end: number, parts: number): void;
  /**
   * One word [start, end) with F_* flags; `hash` is the FNV-1a hash of the
   * word lower-cased (word-table.ts hashRangeLower) when the word is ASCII, else 0.
   */
  word(start: number, end: number, flags: number, hash: number): void;
}

/** `s` without its ignorable format characters (the same string when it has none). */
export function removeIgnorables(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (BMP_CLASS[s.charCodeAt(i)] !== IGNORABLE) continue;
    out += s.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

function isJoiner(c: number): boolean {
  return c === 45 || c === 46 || c === 95; // - . _
}

/** Class of the character at i: WORD, IDEO or NONE (a surrogate pair is classified as one code point). */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return BMP_CLASS[c];
  const cp = text.codePointAt(i) ?? c;
  return cp > 0xffff ? classifyAstral(cp) : NONE;
}

/** Flag on a token-stream record: the record is a technical compound (its parts follow). */
export const F_COMPOUND = 8;
/** Ints per record of a token stream: flags, start, end, hash (or part count for a compound). */
export const RECORD = 4;

/**
 * A reusable token stream: `data` holds `count` records of RECORD ints
 * [flags, start, end, hash-or-parts]. Word records have F_* flags; compound
 * records have F_COMPOUND and the number of parts in place of the hash.
 */
export class TokenStream {
  data = new Int32Array(RECORD * 1024);
  count = 0;

  /** Room for `more` additional records. */
  reserve(more: number): void {
    const need = (this.count + more) * RECORD;
    if (need <= this.data.length) return;
    let cap = this.data.length * 2;
    while (cap < need) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.data.subarray(0, this.count * RECORD));
    this.data = next;
  }
}

let sharedStream: TokenStream | null = new TokenStream();

/** Borrows the shared stream (or a fresh one when it is in use); give it back with releaseStream. */
export function borrowStream(): TokenStream {
  const s = sharedStream ?? new TokenStream();
  sharedStream = null;
  s.count = 0;
  return s;
}
/** Returns a stream obtained from borrowStream. */
export function releaseStream(s: TokenStream): void {
  if (s.data.length <= RECORD * 65536) sharedStream = s;
}

/** Scans `text` and reports compounds and words to `sink` (sinks may call tokenize again). */
export function tokenize(text: string, sink: TokenSink): void {
  const stream = borrowStream();
  try {
    scanInto(text, stream);
    const d = stream.data;
    for (let r = 0, end = stream.count * RECORD; r < end; r += RECORD) {
      const flags = d[r];
      if ((flags & F_COMPOUND) !== 0) sink.compound(d[r + 1], d[r + 2], d[r + 3]);
      else sink.word(d[r + 1], d[r + 2], flags, d[r + 3]);
    }
  } finally {
    releaseStream(stream);
  }
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** Moves the record at `at` one record up (room is reserved), leaving `at` for a compound record. */
function openCompoundSlot(d: Int32Array, at: number): void {
  const r = at * RECORD;
  d[r + 4] = d[r];
  d[r + 5] = d[r + 1];
  d[r + 6] = d[r + 2];
  d[r + 7] = d[r + 3];
}

/** Scans `text` into `stream` (appending records in text order; compounds before their parts). */
export function scanInto(text: string, stream: TokenStream): void {
  const maxPieces = MAX_COMPOUND_PARTS + 1;
  const n = text.length;
  let d = stream.data;
  let cnt = stream.count;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // fast skip of ASCII separators
    if (c < 128 && BMP_CLASS[c] === NONE) {
      i++;
      continue;
    }
    const k = c < 128 ? WORD : classAt(text, i);
    if (k === NONE || k === IGNORABLE) {
      i += c >= 0xd800 && c <= 0xdbff && (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
      continue;
    }
    if ((cnt + maxPieces + 1) * RECORD > d.length) {
      stream.count = cnt;
      stream.reserve(maxPieces + 1);
      d = stream.data;
    }
    if (k === IDEO) {
      const len = c >= 0xd800 && c <= 0xdbff ? 2 : 1;
      const r = cnt++ * RECORD;
      d[r] = F_NON_ASCII;
      d[r + 1] = i;
      d[r + 2] = i + len;
      d[r + 3] = 0;
      i += len;
      continue;
    }
    // a run of word pieces joined by - . _ ; the first piece is written in place, and the
    // compound's record is slotted in before it only when a second piece follows (rare)
    const compoundAt = cnt;
    let pieces = 0;
    let j = i;
    for (;;) {
      const ps = j;
      let flags = 0;
      let h = FNV_OFFSET;
      while (j < n) {
        const ch = text.charCodeAt(j);
        if (ch >= 97 && ch <= 122) {
          h = Math.imul(h ^ ch, FNV_PRIME);
          j++;
          continue;
        }
        if (ch < 128) {
          if (BMP_CLASS[ch] === WORD) {
            if (ch <= 90 && ch >= 65) {
              flags |= F_UPPER;
              h = Math.imul(h ^ (ch + 32), FNV_PRIME);
            } else h = Math.imul(h ^ ch, FNV_PRIME);
            j++;
            continue;
          }
          if (ch === 39 && j > ps && j + 1 < n && classAt(text, j + 1) === WORD) {
            h = Math.imul(h ^ ch, FNV_PRIME);
            j++;
            continue;
          }
          break;
        }
        if (ch === 0x2019 && j > ps && j + 1 < n && classAt(text, j + 1) === WORD) {
          flags |= F_CURLY_APOS | F_NON_ASCII;
          j++;
          continue;
        }
        const cls = classAt(text, j);
        if (cls !== WORD) {
          if (cls !== IGNORABLE) break;
          // ignorables between word characters stay inside the word (UAX #29 WB4)
          let next = j + 1;
          while (next < n && BMP_CLASS[text.charCodeAt(next)] === IGNORABLE) next++;
          if (next >= n || classAt(text, next) !== WORD) break;
          flags |= F_IGNORABLE | F_NON_ASCII;
          j = next;
          continue;
        }
        flags |= F_NON_ASCII;
        j += ch >= 0xd800 && ch <= 0xdbff ? 2 : 1;
      }
      const r = cnt++ * RECORD;
      d[r] = flags;
      d[r + 1] = ps;
      d[r + 2] = j;
      d[r + 3] = (flags & F_NON_ASCII) === 0 ? h : 0;
      pieces++;
      if (pieces < maxPieces && j + 1 < n && isJoiner(text.charCodeAt(j)) && classAt(text, j + 1) === WORD) {
        if (pieces === 1) {
          openCompoundSlot(d, compoundAt);
          cnt++;
        }
        j++;
        continue;
      }
      break;
    }
    if (pieces > 1) {
      const r = compoundAt * RECORD;
      if (pieces <= MAX_COMPOUND_PARTS && j - i <= MAX_COMPOUND_LENGTH) {
        d[r] = F_COMPOUND;
        d[r + 1] = i;
        d[r + 2] = j;
        d[r + 3] = pieces;
      } else {
        // too long to be reported whole: shift the pieces down over the compound's slot
        for (let x = r, end = (cnt - 1) * RECORD; x < end; x++) d[x] = d[x + RECORD];
        cnt--;
      }
    }
    i = j;
  }
  stream.count = cnt;
}
