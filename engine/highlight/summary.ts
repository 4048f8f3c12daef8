/**
 * Short summary of a document: its first meaningful sentences, bounded length.
 * Whitespace is collapsed; sentences with fewer than `minWords` words of
 * letters (headings, page numbers, link lists) are skipped while later ones
 * exist; sentences are added while they fit in `maxLength`; a first sentence
 * longer than that is cut at a word boundary and ends with "…".
 */
import { splitSentences } from './passages.ts';

export interface SummaryOptions {
  /** Longest summary in characters (the ellipsis included). Default 300. */
  maxLength: number;
  /** Stop adding sentences once this length is reached. Default 120. */
  targetLength: number;
  /** Fewer words than this make a sentence "not meaningful". Default 4. */
  minWords: number;
}

export const DEFAULT_SUMMARY: Readonly<SummaryOptions> = Object.freeze({ maxLength: 300, targetLength: 120, minWords: 4 });

const WORD = /[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*/gu;

export function summarize(text: string, options: Partial<SummaryOptions> = {}): string {
  const o = { ...DEFAULT_SUMMARY, ...options };
  const head = text.slice(0, Math.max(o.maxLength * 20, 4000));
  const spans = splitSentences(head);
  return fill(head, spans, o, true) ?? fill(head, spans, o, false) ?? '';
}

/**
 * The summary built from the sentences in order (only the meaningful ones when `meaningfulOnly`),
 * normalising each only when it is reached; null when there is no such sentence.
 */
function fill(head: string, spans: readonly [number, number][], o: SummaryOptions, meaningfulOnly: boolean): string | null {
  let out = '';
  let any = false;
  for (const [s, e] of spans) {
    const sentence = collapseSpaces(head.slice(s, e));
    if (sentence.length === 0) continue;
    if (meaningfulOnly && !hasWords(sentence, o.minWords)) continue;
    any = true;
    const next = out ? `${out} ${sentence}` : sentence;
    if (next.length > o.maxLength) {
      if (!out) out = cutAtWord(sentence, o.maxLength);
      break;
    }
    out = next;
    if (out.length >= o.targetLength) break;
  }
  return any ? out : null;
}

const SPACES = /\s+/g;

/** True for the characters of JavaScript's `\s`. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * `s` with every run of whitespace made one space and no whitespace at either end (as
 * `s.replace(/\s+/g, ' ').trim()`); the regular expression runs only when a run or a
 * non-space whitespace character is present.
 */
export function collapseSpaces(s: string): string {
  let prev = true; // a leading space counts as a run
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (prev) return s.replace(SPACES, ' ').trim();
      prev = true;
    } else if (isSpace(c)) return s.replace(SPACES, ' ').trim();
    else prev = false;
  }
  return prev && s.length > 0 ? s.slice(0, -1) : s;
}

/** True when `s` holds at least `min` words of letters (WORD matches), counted up to `min` only. */
function hasWords(s: string, min: number): boolean {
  let n = 0;
  WORD.lastIndex = 0;
  while (n < min && WORD.exec(s) !== null) n++;
  return n >= min;
}

/** Cut `s` to at most `max` chars at a word boundary, ending with "…". */
export function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const room = Math.max(1, max - 1);
  let cut = s.lastIndexOf(' ', room);
  if (cut < room / 2) cut = room;
  return `${s.slice(0, cut).replace(/[\s,;:.-]+$/u, '')}…`;
}
