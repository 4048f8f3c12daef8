/**
 * Short summary of a document: its first meaningful sentences, bounded length.
 * Whitespace is collapsed; sentences with fewer than `minWords` words of
 * letters (headings, page numbers, link lists) are skipped while later ones
 * exist; sentences are added while they fit in `maxLength`; a first sentence
 * longer than that is cut at a word boundary (between characters where it has no spaces,
 * graphemes.ts) and ends with "…".
 */
import { graphemeFloor } from './graphemes.ts';
import { splitSentences } from './passages.ts';

export interface SummaryOptions {
  /** Longest summary in characters (the ellipsis included). Default 300. */
  maxLength: number;
  /** Stop adding sentences once this length is reached. Default 120. */
  targetLength: number;
  /** Fewer words than this make a sentence "not meaningful". Default 4. */
  minWords: number;
}

export const DEFAULT_SUMMARY: Readonly<SummaryOptions> = Object.freeze({
  maxLength: 300,
  targetLength: 120,
  minWords: 4,
});

const WORD = /[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*/gu;

export function summarize(text: string, options: Partial<SummaryOptions> = {}): string {
  const o = { ...DEFAULT_SUMMARY, ...options };
  const head = text.slice(0, graphemeFloor(text, Math.max(o.maxLength * 20, 4000)));
  const spans = splitSentences(head);
  return fill(head, spans, o, true) ?? fill(head, spans, o, false) ?? '';
}

/**
 * The summary built from the sentences in order (only the meaningful ones when `meaningfulOnly`),
 * normalising each only when it is reached; null when there is no such sentence.
 */
function fill(
  head: string,
  spans: readonly [number, number][],
  o: SummaryOptions,
  meaningfulOnly: boolean,
): string | null {
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
/** Whitespace that collapsing would change: any but a single inner space. */
const UNTIDY = /[^\S ]| {2}|^ | $/;

/** `s.replace(/\s+/g, ' ').trim()`, without the replace when nothing would change (the common case). */
export function collapseSpaces(s: string): string {
  return UNTIDY.test(s) ? s.replace(SPACES, ' ').trim() : s;
}

/** True when `s` holds at least `min` words of letters (WORD matches), counted up to `min` only. */
function hasWords(s: string, min: number): boolean {
  let n = 0;
  WORD.lastIndex = 0;
  while (n < min && WORD.exec(s) !== null) n++;
  return n >= min;
}

/** Cut `s` to at most `max` chars at a word boundary (else between characters), ending with "…". */
export function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const room = Math.max(1, max - 1);
  let cut = s.lastIndexOf(' ', room);
  if (cut < room / 2) cut = graphemeFloor(s, room) || room; // no space to cut at: between characters
  return `${s.slice(0, cut).replace(/[\s,;:.-]+$/u, '')}…`;
}
