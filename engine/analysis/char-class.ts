/**
 * Character classes for the tokenizer, precomputed for the whole BMP so the
 * scanner never runs a regular expression per character: word characters are
 * letters, digits and marks of every script (\p{L}\p{N}\p{M}); ideographs
 * (Han, Hiragana, Katakana) are word characters that form one-character words,
 * because those scripts do not separate words by spaces; ignorables are the
 * invisible format characters (default-ignorable \p{Cf}: soft hyphen, ZWJ, ZWNJ,
 * word joiner, BOM, bidi marks) that stay inside a word between word characters
 * (UAX #29 WB4) and are left out of its term. The zero-width space is no
 * ignorable: it marks a word break.
 */

export const NONE = 0;
export const WORD = 1;
export const IDEO = 2;
export const IGNORABLE = 3;

const WORD_RE = /^[\p{L}\p{N}\p{M}]$/u;
const IDEO_RE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const FORMAT_RE = /^\p{Cf}$/u;
const DEFAULT_IGNORABLE_RE = /^\p{Default_Ignorable_Code_Point}$/u;

/** Class of every BMP code unit; surrogates are NONE here and resolved by classifyAstral. */
export const BMP_CLASS: Uint8Array = (() => {
  const t = new Uint8Array(65536);
  for (let c = 48; c <= 57; c++) t[c] = WORD;
  for (let c = 65; c <= 90; c++) t[c] = WORD;
  for (let c = 97; c <= 122; c++) t[c] = WORD;
  for (let c = 128; c < 65536; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCharCode(c);
    if (WORD_RE.test(s)) t[c] = IDEO_RE.test(s) ? IDEO : WORD;
    else if (c !== 0x200b && FORMAT_RE.test(s) && DEFAULT_IGNORABLE_RE.test(s)) t[c] = IGNORABLE;
  }
  return t;
})();

const astralCache = new Map<number, number>();

/** Class of a supplementary-plane code point (emoji are NONE, CJK extensions IDEO). */
export function classifyAstral(cp: number): number {
  let k = astralCache.get(cp);
  if (k === undefined) {
    const s = String.fromCodePoint(cp);
    k = WORD_RE.test(s) ? (IDEO_RE.test(s) ? IDEO : WORD) : NONE;
    if (astralCache.size < 10_000) astralCache.set(cp, k);
  }
  return k;
}
