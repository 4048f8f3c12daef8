/**
 * Snowball English (Porter2) stemmer, written from the published Snowball
 * description (algorithms/english.sbl: prelude, mark_regions, Step_1a..Step_5,
 * exception1, postlude; the current version with the 'inter' region prefix).
 * Input must already be lower case. Checked against the published
 * snowball-data vocabulary/output lists (test/engine/analysis/data).
 *
 * The word is stemmed in a reusable UTF-16 code buffer (suffixes are removed by
 * shortening it), so a word costs no intermediate strings; the result is the
 * input itself when unchanged, a slice of it when only shortened, else one new
 * flat string. Pure function (the buffer is scratch); callers that stem many
 * words should memoise (analyzer.ts does).
 */
import { suffixIndex, type SuffixIndex } from './suffix-index.ts';

/** True for the Porter2 vowels a e i o u y (lower-case y only; 'Y' is a consonant). */
function isV(c: number): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121;
}
/** v_WXY: a vowel or w, x, Y. */
function isVWXY(c: number): boolean {
  return isV(c) || c === 119 || c === 120 || c === 89;
}
/** valid_LI: c d e g h k m n r t. */
function isValidLi(c: number): boolean {
  return (
    c === 99 ||
    c === 100 ||
    c === 101 ||
    c === 103 ||
    c === 104 ||
    c === 107 ||
    c === 109 ||
    c === 110 ||
    c === 114 ||
    c === 116
  );
}

const EXCEPTIONS = new Map<string, string>([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

const REGION_PREFIXES = ['gener', 'commun', 'arsen', 'past', 'univers', 'later', 'emerg', 'organ', 'inter'];

const STEP2: Record<string, string> = {
  tional: 'tion',
  enci: 'ence',
  anci: 'ance',
  abli: 'able',
  entli: 'ent',
  izer: 'ize',
  ization: 'ize',
  ational: 'ate',
  ation: 'ate',
  ator: 'ate',
  alism: 'al',
  aliti: 'al',
  alli: 'al',
  fulness: 'ful',
  ousli: 'ous',
  ousness: 'ous',
  iveness: 'ive',
  iviti: 'ive',
  biliti: 'ble',
  bli: 'ble',
  ogist: 'og',
  ogi: 'og',
  fulli: 'ful',
  lessli: 'less',
  li: '',
};
const STEP2_KEYS = suffixIndex(Object.keys(STEP2));
const STEP3: Record<string, string> = {
  tional: 'tion',
  ational: 'ate',
  alize: 'al',
  icate: 'ic',
  iciti: 'ic',
  ical: 'ic',
  ful: '',
  ness: '',
  ative: '',
};
const STEP3_KEYS = suffixIndex(Object.keys(STEP3));
const STEP4_KEYS = suffixIndex([
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
]);
const STEP1B_KEYS = suffixIndex(['eed', 'eedly', 'ed', 'edly', 'ing', 'ingly']);
const ING_KEEP = ['inn', 'out', 'cann', 'herr', 'earr', 'even'];

/** Scratch buffer for the word being stemmed (grown for long words). */
let scratch = new Uint16Array(64);

/** True when b[at, at + s.length) is s, within b[0, n). */
function hasAt(b: Uint16Array, n: number, at: number, s: string): boolean {
  if (at < 0 || at + s.length > n) return false;
  for (let j = 0; j < s.length; j++) if (b[at + j] !== s.charCodeAt(j)) return false;
  return true;
}

/** True when b[0, n) ends with s. */
function endsWith(b: Uint16Array, n: number, s: string): boolean {
  return hasAt(b, n, n - s.length, s);
}

/** True when b[0, n) is s. */
function equals(b: Uint16Array, n: number, s: string): boolean {
  return n === s.length && hasAt(b, n, 0, s);
}

/** Writes s at b[at]; returns the new length. */
function put(b: Uint16Array, at: number, s: string): number {
  for (let j = 0; j < s.length; j++) b[at + j] = s.charCodeAt(j);
  return at + s.length;
}

/** The longest suffix of b[0, n) in the index, or ''. */
function longest(b: Uint16Array, n: number, index: SuffixIndex): string {
  if (n === 0) return '';
  const bucket = index.get(b[n - 1]);
  if (bucket === undefined) return '';
  for (let i = 0; i < bucket.length; i++) if (hasAt(b, n, n - bucket[i].length, bucket[i])) return bucket[i];
  return '';
}

/** Position just after the first vowel-then-non-vowel at or after `from` in b[0, n), or -1 (R1/R2). */
function gopast(b: Uint16Array, n: number, from: number): number {
  let i = from;
  while (i < n && !isV(b[i])) i++;
  if (i >= n) return -1;
  i++;
  while (i < n && isV(b[i])) i++;
  if (i >= n) return -1;
  return i + 1;
}

/** shortv: the syllable ending at `pos` is short. */
function shortv(b: Uint16Array, pos: number): boolean {
  if (pos >= 3 && !isVWXY(b[pos - 1]) && isV(b[pos - 2]) && !isV(b[pos - 3])) return true;
  if (pos === 2 && !isV(b[1]) && isV(b[0])) return true;
  return pos >= 4 && b[pos - 4] === 112 && b[pos - 3] === 97 && b[pos - 2] === 115 && b[pos - 1] === 116; // "past"
}

function hasVowel(b: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isV(b[i])) return true;
  return false;
}

/** Stems one lower-case English word. */
export function stemEnglish(word: string): string {
  const ex = EXCEPTIONS.get(word);
  if (ex !== undefined) return ex;
  if (word.length < 3) return word;

  // prelude: load the word (without a leading apostrophe), marking consonant-y as Y
  const off = word.charCodeAt(0) === 39 ? 1 : 0;
  const len = word.length - off;
  if (scratch.length < len + 8) scratch = new Uint16Array(2 * len + 8);
  const b = scratch;
  let n = len;
  let yFound = false;
  let prev = -1;
  for (let i = 0; i < len; i++) {
    let c = word.charCodeAt(off + i);
    if (c === 121 && (i === 0 || isV(prev))) {
      c = 89;
      yFound = true;
    }
    b[i] = c;
    prev = c;
  }

  // mark_regions
  let p1 = n;
  let p2 = n;
  let prefixLen = -1;
  for (let i = 0; i < REGION_PREFIXES.length; i++) {
    const p = REGION_PREFIXES[i];
    if (p.length > prefixLen && hasAt(b, n, 0, p)) prefixLen = p.length;
  }
  const r1 = prefixLen >= 0 ? prefixLen : gopast(b, n, 0);
  if (r1 >= 0) {
    p1 = r1;
    const r2 = gopast(b, n, r1);
    if (r2 >= 0) p2 = r2;
  }

  // Step_1a
  if (endsWith(b, n, "'s'")) n -= 3;
  else if (endsWith(b, n, "'s")) n -= 2;
  else if (endsWith(b, n, "'")) n -= 1;
  if (endsWith(b, n, 'sses')) n -= 2;
  else if (endsWith(b, n, 'ied') || endsWith(b, n, 'ies')) n = n - 3 >= 2 ? n - 2 : n - 1;
  else if (endsWith(b, n, 'us') || endsWith(b, n, 'ss')) {
    /* unchanged */
  } else if (endsWith(b, n, 's') && hasVowel(b, 0, n - 2)) n -= 1;

  // Step_1b
  const s1b = longest(b, n, STEP1B_KEYS);
  let general = false;
  if (s1b === 'eed' || s1b === 'eedly') {
    const stem = n - s1b.length;
    if (!(equals(b, stem, 'proc') || equals(b, stem, 'exc') || equals(b, stem, 'succ')) && stem >= p1)
      n = put(b, stem, 'ee');
  } else if (s1b === 'ing') {
    const stem = n - 3;
    if (stem === 2 && b[1] === 121 && !isV(b[0])) n = put(b, 1, 'ie');
    else {
      let keep = false;
      for (let i = 0; i < ING_KEEP.length; i++) if (equals(b, stem, ING_KEEP[i])) keep = true;
      if (!keep) general = true;
    }
  } else if (s1b !== '') {
    general = true;
  }
  if (general && hasVowel(b, 0, n - s1b.length)) {
    n -= s1b.length;
    const a = n >= 2 ? b[n - 2] : -1;
    const z = b[n - 1];
    if ((a === 97 && z === 116) || (a === 98 && z === 108) || (a === 105 && z === 122))
      n = put(b, n, 'e'); // at bl iz
    else if (
      a === z &&
      (a === 98 || a === 100 || a === 102 || a === 103 || a === 109 || a === 110 || a === 112 || a === 114 || a === 116)
    ) {
      const c0 = b[0];
      if (!(n === 3 && (c0 === 97 || c0 === 101 || c0 === 111))) n -= 1;
    } else if (n === p1 && shortv(b, n)) n = put(b, n, 'e');
  }

  // Step_1c
  if (n > 2) {
    const last = b[n - 1];
    if ((last === 121 || last === 89) && !isV(b[n - 2])) b[n - 1] = 105;
  }

  // Step_2
  const s2 = longest(b, n, STEP2_KEYS);
  if (s2 !== '' && n - s2.length >= p1) {
    const at = n - s2.length;
    if (s2 === 'ogi') {
      if (at > 0 && b[at - 1] === 108) n = put(b, at, 'og');
    } else if (s2 === 'li') {
      if (at > 0 && isValidLi(b[at - 1])) n = at;
    } else n = put(b, at, STEP2[s2]);
  }

  // Step_3
  const s3 = longest(b, n, STEP3_KEYS);
  if (s3 !== '' && n - s3.length >= p1) {
    const at = n - s3.length;
    if (s3 === 'ative') {
      if (at >= p2) n = at;
    } else n = put(b, at, STEP3[s3]);
  }

  // Step_4
  const s4 = longest(b, n, STEP4_KEYS);
  if (s4 !== '' && n - s4.length >= p2) {
    const at = n - s4.length;
    if (s4 === 'ion') {
      const c = at > 0 ? b[at - 1] : 0;
      if (c === 115 || c === 116) n = at;
    } else n = at;
  }

  // Step_5
  if (n > 0) {
    const e = b[n - 1];
    const at = n - 1;
    if (e === 101) {
      if (at >= p2 || (at >= p1 && !shortv(b, at))) n = at;
    } else if (e === 108) {
      if (at >= p2 && at > 0 && b[at - 1] === 108) n = at;
    }
  }

  // postlude (Y back to y), then the result: the input's longest matching prefix (the input itself
  // or a slice of it when the word was only shortened) plus the characters that differ
  if (yFound) for (let i = 0; i < n; i++) if (b[i] === 89) b[i] = 121;
  let k = 0;
  while (k < n && b[k] === word.charCodeAt(off + k)) k++;
  if (k === n) return n === word.length ? word : word.slice(off, off + n);
  let tail = '';
  for (let i = k; i < n; i++) tail += String.fromCharCode(b[i]);
  return k === 0 ? tail : word.slice(off, off + k) + tail;
}
