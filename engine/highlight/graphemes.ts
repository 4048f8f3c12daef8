/**
 * Grapheme boundaries for cutting text (passage windows, summaries): a cut never falls inside a
 * user-perceived character, so it never leaves half of a surrogate pair (an astral character such
 * as an emoji or a CJK Extension B ideograph), a letter without its combining marks, part of an
 * emoji sequence joined by ZWJ, or half of a flag. Boundaries are those of Intl.Segmenter
 * (UAX #29), looked up in a small window around the cut; text below U+0300 on both sides of a cut
 * is decided without it.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How far around a cut the segmenter looks (UTF-16 units); longer clusters are cut at a code point. */
const WINDOW = 32;

/** True when a cut at `i` certainly falls between graphemes (both neighbours below U+0300). */
function plainCut(text: string, i: number): boolean {
  return i <= 0 || i >= text.length || (text.charCodeAt(i) < 0x300 && text.charCodeAt(i - 1) < 0x300);
}

/** `i` moved back off the low half of a surrogate pair. */
function codePointStart(text: string, i: number): number {
  return i > 0 && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i - 1 : i;
}

/** `i` moved forward off the low half of a surrogate pair. */
function codePointEnd(text: string, i: number): number {
  return i > 0 && i < text.length && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i + 1 : i;
}

/** True when text[i, i + 2) is a regional indicator symbol (U+1F1E6..U+1F1FF, half of a flag). */
function isRegionalIndicator(text: string, i: number): boolean {
  const lo = text.charCodeAt(i + 1);
  return text.charCodeAt(i) === 0xd83c && lo >= 0xdde6 && lo <= 0xddff;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * The grapheme boundaries within WINDOW of `i` (absolute offsets, ascending). The window's own
 * edges count only where they are the text's: a window may start or end inside a cluster.
 */
function boundariesAround(text: string, i: number): number[] {
  let from = codePointStart(text, Math.max(0, i - WINDOW));
  // flags pair regional indicators counted from the start of their run
  while (from >= 2 && isRegionalIndicator(text, from - 2)) from -= 2;
  const to = codePointEnd(text, Math.min(text.length, i + WINDOW));
  const out: number[] = [];
  for (const { index } of segmenter.segment(text.slice(from, to))) if (from === 0 || index > 0) out.push(from + index);
  if (to === text.length) out.push(to);
  return out;
}

/** The last grapheme boundary at or before `i` (`i` itself when it is one); within [0, text.length]. */
export function graphemeFloor(text: string, i: number): number {
  const at = Math.max(0, Math.min(text.length, i));
  if (plainCut(text, at)) return at;
  let best = -1;
  for (const b of boundariesAround(text, at)) if (b <= at) best = b;
  return best >= 0 ? best : codePointStart(text, at);
}

/** The first grapheme boundary at or after `i` (`i` itself when it is one); within [0, text.length]. */
export function graphemeCeil(text: string, i: number): number {
  const at = Math.max(0, Math.min(text.length, i));
  if (plainCut(text, at)) return at;
  for (const b of boundariesAround(text, at)) if (b >= at) return b;
  return codePointEnd(text, at);
}
