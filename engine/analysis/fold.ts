/**
 * Character folding applied to index terms: German umlauts and ß (as Lucene's
 * GermanNormalizationFilter after stemming: ä->a, ö->o, ü->u, ß->ss) and,
 * for other Latin letters with diacritics, removal of the marks (é->e, ễ->e)
 * and plain spellings of letters with a stroke (ł->l, ø->o), so that
 * "Häuser"/"Hauser" and "café"/"cafe" meet; German words lose their other
 * diacritics before stemming (foldAccents), their umlauts after it. Before any of that, a word
 * with compatibility characters or combining marks takes its NFKC form
 * (foldCompatibility: "ﬁle" -> "file", "Ｆｉｌｅ" -> "File", "a\u0308" -> "ä"). Pure
 * ASCII input is returned unchanged without allocation.
 */

/** Folds ä ö ü ß (and upper-case Ä Ö Ü ẞ) to a o u ss. */
export function foldGerman(word: string): string {
  let i = 0;
  const n = word.length;
  for (; i < n; i++) {
    const c = word.charCodeAt(i);
    if (c === 0xe4 || c === 0xf6 || c === 0xfc || c === 0xdf || c === 0xc4 || c === 0xd6 || c === 0xdc || c === 0x1e9e)
      break;
  }
  if (i === n) return word;
  let out = word.slice(0, i);
  for (; i < n; i++) {
    const c = word.charCodeAt(i);
    switch (c) {
      case 0xe4:
        out += 'a';
        break;
      case 0xf6:
        out += 'o';
        break;
      case 0xfc:
        out += 'u';
        break;
      case 0xc4:
        out += 'A';
        break;
      case 0xd6:
        out += 'O';
        break;
      case 0xdc:
        out += 'U';
        break;
      case 0xdf:
        out += 'ss';
        break;
      case 0x1e9e:
        out += 'SS';
        break;
      default:
        out += word[i];
    }
  }
  return out;
}

const MARKS = /[\u0300-\u036f]/g;

/** Latin letters without a decomposition, as their plain letters (as Lucene's ASCIIFoldingFilter). */
const STROKES: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ı: 'i',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
};
const STROKE_RE = /[łŁøØđĐħĦŧŦıæÆœŒ]/g;

/** True when `word` has a Latin letter beyond ASCII (U+00C0..U+024F, U+1E00..U+1EFF) or a combining mark. */
function hasLatinBeyondAscii(word: string, skipUmlauts: boolean): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if ((c >= 0xc0 && c <= 0x24f) || (c >= 0x1e00 && c <= 0x1eff) || (c >= 0x300 && c <= 0x36f)) {
      if (!skipUmlauts || !isUmlaut(c)) return true;
    }
  }
  return false;
}

/** ä ö ü ß and their capitals. */
function isUmlaut(c: number): boolean {
  return c === 0xe4 || c === 0xf6 || c === 0xfc || c === 0xdf || c === 0xc4 || c === 0xd6 || c === 0xdc;
}

/** Marks stripped from Latin letters (after NFD), letters with a stroke and æ/œ spelled plainly. */
function stripAccents(word: string): string {
  return word
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
    .replace(STROKE_RE, (ch) => STROKES[ch]);
}

/**
 * Folds umlauts/ß, then strips combining marks from Latin letters (U+00C0..U+024F and Latin
 * Extended Additional U+1E00..U+1EFF, e.g. Vietnamese ễ) and spells ł ø đ ħ ŧ ı æ œ plainly.
 */
export function foldLatin(word: string): string {
  if (!hasLatinBeyondAscii(word, false)) return word;
  return stripAccents(foldGerman(word));
}

/**
 * foldLatin except for ä ö ü ß, which stay for the German stemmer (it reads them as letters of
 * their own): applied before German stemming, so that "Café" and "Cafe" give one stem.
 */
export function foldAccents(word: string): string {
  if (!hasLatinBeyondAscii(word, true)) return word;
  let out = '';
  let from = 0;
  for (let i = 0; i < word.length; i++) {
    if (!isUmlaut(word.charCodeAt(i))) continue;
    out += stripAccents(word.slice(from, i)) + word[i];
    from = i + 1;
  }
  return out + stripAccents(word.slice(from));
}

/**
 * BMP code units that make a word need NFKC: characters whose NFKC form differs (ligatures,
 * full-width and half-width forms, superscripts, presentation forms, long s …); combining marks
 * and Hangul vowel and final jamo, which may compose with what precedes them; high surrogates
 * (astral compatibility characters such as mathematical letters).
 */
const NEEDS_NFKC: Uint8Array = (() => {
  const t = new Uint8Array(65536);
  const mark = /^\p{M}$/u;
  for (let c = 0x80; c < 65536; c++) {
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff) t[c] = 1;
      continue;
    }
    const s = String.fromCharCode(c);
    if (s.normalize('NFKC') !== s || mark.test(s)) t[c] = 1;
  }
  // Hangul vowel and final jamo compose with the jamo before them into syllables
  for (let c = 0x1161; c <= 0x1175; c++) t[c] = 1;
  for (let c = 0x11a8; c <= 0x11c2; c++) t[c] = 1;
  return t;
})();

/**
 * The NFKC form of a word that needs it (see NEEDS_NFKC), else the word itself (same string):
 * compatibility characters become their plain forms and decomposed letters are composed, so
 * they meet the words as usually written. Apply before lower-casing (NFKC may give capitals).
 */
export function foldCompatibility(word: string): string {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 0x80 && NEEDS_NFKC[c] === 1) return word.normalize('NFKC');
  }
  return word;
}
