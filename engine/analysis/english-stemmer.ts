/**
 * Snowball English (Porter2) stemmer, written from the published Snowball
 * description (algorithms/english.sbl: prelude, mark_regions, Step_1a..Step_5,
 * exception1, postlude; the current version with the 'inter' region prefix).
 * Input must already be lower case. Checked against the published
 * snowball-data vocabulary/output lists (test/engine/analysis/data).
 * Pure function; callers that stem many words should memoise (analyzer.ts does).
 */
import { gopastVNonV } from './snowball-regions.ts';
import * as sfx from './suffix-index.ts';

// Local copies: module bindings may be compiled to getters, too slow per word.
const longestSuffix = sfx.longestSuffix;
const suffixIndex = sfx.suffixIndex;

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
  return c === 99 || c === 100 || c === 101 || c === 103 || c === 104 || c === 107 || c === 109 || c === 110 || c === 114 || c === 116;
}

const EXCEPTIONS = new Map<string, string>([
  ['skis', 'ski'], ['skies', 'sky'], ['idly', 'idl'], ['gently', 'gentl'], ['ugly', 'ugli'],
  ['early', 'earli'], ['only', 'onli'], ['singly', 'singl'], ['sky', 'sky'], ['news', 'news'],
  ['howe', 'howe'], ['atlas', 'atlas'], ['cosmos', 'cosmos'], ['bias', 'bias'], ['andes', 'andes'],
]);

const REGION_PREFIXES = ['gener', 'commun', 'arsen', 'past', 'univers', 'later', 'emerg', 'organ', 'inter'];

/** shortv: the syllable ending at `pos` is short. */
function shortv(w: string, pos: number): boolean {
  if (pos >= 3) {
    const a = w.charCodeAt(pos - 1);
    if (!isVWXY(a) && isV(w.charCodeAt(pos - 2)) && !isV(w.charCodeAt(pos - 3))) return true;
  }
  if (pos === 2 && !isV(w.charCodeAt(1)) && isV(w.charCodeAt(0))) return true;
  return pos >= 4 && w.startsWith('past', pos - 4);
}

function hasVowel(w: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isV(w.charCodeAt(i))) return true;
  return false;
}



const STEP2: Record<string, string> = {
  tional: 'tion', enci: 'ence', anci: 'ance', abli: 'able', entli: 'ent', izer: 'ize', ization: 'ize',
  ational: 'ate', ation: 'ate', ator: 'ate', alism: 'al', aliti: 'al', alli: 'al', fulness: 'ful',
  ousli: 'ous', ousness: 'ous', iveness: 'ive', iviti: 'ive', biliti: 'ble', bli: 'ble', ogist: 'og',
  ogi: 'og', fulli: 'ful', lessli: 'less', li: '',
};
const STEP2_KEYS = suffixIndex(Object.keys(STEP2));
const STEP3: Record<string, string> = {
  tional: 'tion', ational: 'ate', alize: 'al', icate: 'ic', iciti: 'ic', ical: 'ic', ful: '', ness: '', ative: '',
};
const STEP3_KEYS = suffixIndex(Object.keys(STEP3));
const STEP4_KEYS = suffixIndex(['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ism', 'ate',
  'iti', 'ous', 'ive', 'ize', 'ion']);
const STEP1B_KEYS = suffixIndex(['eed', 'eedly', 'ed', 'edly', 'ing', 'ingly']);
const ING_KEEP = new Set(['inn', 'out', 'cann', 'herr', 'earr', 'even']);
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);

/** Stems one lower-case English word. */
export function stemEnglish(word: string): string {
  const ex = EXCEPTIONS.get(word);
  if (ex !== undefined) return ex;
  if (word.length < 3) return word;

  // prelude
  let w = word.charCodeAt(0) === 39 ? word.slice(1) : word;
  let yFound = false;
  if (w.indexOf('y') >= 0) {
    let out = '';
    let prev = -1;
    for (let i = 0; i < w.length; i++) {
      let c = w.charCodeAt(i);
      if (c === 121 && (i === 0 || isV(prev))) { c = 89; yFound = true; }
      out += String.fromCharCode(c);
      prev = c;
    }
    w = out;
  }

  // mark_regions
  const len0 = w.length;
  let p1 = len0;
  let p2 = len0;
  let prefixLen = -1;
  for (const p of REGION_PREFIXES) if (w.startsWith(p) && p.length > prefixLen) prefixLen = p.length;
  const r1 = prefixLen >= 0 ? prefixLen : gopastVNonV(w, 0, isV);
  if (r1 >= 0) {
    p1 = r1;
    const r2 = gopastVNonV(w, r1, isV);
    if (r2 >= 0) p2 = r2;
  }

  // Step_1a
  if (w.endsWith("'s'")) w = w.slice(0, -3);
  else if (w.endsWith("'s")) w = w.slice(0, -2);
  else if (w.endsWith("'")) w = w.slice(0, -1);
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.length - 3 >= 2 ? w.slice(0, -2) : w.slice(0, -1);
  else if (w.endsWith('us') || w.endsWith('ss')) { /* unchanged */ }
  else if (w.endsWith('s') && hasVowel(w, 0, w.length - 2)) w = w.slice(0, -1);

  // Step_1b
  const s1b = longestSuffix(w, STEP1B_KEYS);
  let general = false;
  if (s1b === 'eed' || s1b === 'eedly') {
    const stem = w.slice(0, w.length - s1b.length);
    if (!(stem === 'proc' || stem === 'exc' || stem === 'succ') && stem.length >= p1) w = stem + 'ee';
  } else if (s1b === 'ing') {
    const stem = w.slice(0, -3);
    if (stem.length === 2 && stem.charCodeAt(1) === 121 && !isV(stem.charCodeAt(0))) w = stem[0] + 'ie';
    else if (!ING_KEEP.has(stem)) general = true;
  } else if (s1b !== '') {
    general = true;
  }
  if (general) {
    const stem = w.slice(0, w.length - s1b.length);
    if (hasVowel(stem, 0, stem.length)) {
      w = stem;
      const end2 = w.slice(-2);
      if (end2 === 'at' || end2 === 'bl' || end2 === 'iz') w += 'e';
      else if (DOUBLES.has(end2)) {
        const c0 = w.charCodeAt(0);
        if (!(w.length === 3 && (c0 === 97 || c0 === 101 || c0 === 111))) w = w.slice(0, -1);
      } else if (w.length === p1 && shortv(w, w.length)) w += 'e';
    }
  }

  // Step_1c
  const last = w.charCodeAt(w.length - 1);
  if ((last === 121 || last === 89) && w.length > 2 && !isV(w.charCodeAt(w.length - 2))) w = w.slice(0, -1) + 'i';

  // Step_2
  const s2 = longestSuffix(w, STEP2_KEYS);
  if (s2 !== '' && w.length - s2.length >= p1) {
    const at = w.length - s2.length;
    if (s2 === 'ogi') { if (at > 0 && w.charCodeAt(at - 1) === 108) w = w.slice(0, at) + 'og'; }
    else if (s2 === 'li') { if (at > 0 && isValidLi(w.charCodeAt(at - 1))) w = w.slice(0, at); }
    else w = w.slice(0, at) + STEP2[s2];
  }

  // Step_3
  const s3 = longestSuffix(w, STEP3_KEYS);
  if (s3 !== '' && w.length - s3.length >= p1) {
    const at = w.length - s3.length;
    if (s3 === 'ative') { if (at >= p2) w = w.slice(0, at); }
    else w = w.slice(0, at) + STEP3[s3];
  }

  // Step_4
  const s4 = longestSuffix(w, STEP4_KEYS);
  if (s4 !== '' && w.length - s4.length >= p2) {
    const at = w.length - s4.length;
    if (s4 === 'ion') {
      const c = at > 0 ? w.charCodeAt(at - 1) : 0;
      if (c === 115 || c === 116) w = w.slice(0, at);
    } else w = w.slice(0, at);
  }

  // Step_5
  const e = w.charCodeAt(w.length - 1);
  if (e === 101) {
    const at = w.length - 1;
    if (at >= p2 || (at >= p1 && !shortv(w, at))) w = w.slice(0, at);
  } else if (e === 108) {
    const at = w.length - 1;
    if (at >= p2 && at > 0 && w.charCodeAt(at - 1) === 108) w = w.slice(0, at);
  }

  // postlude
  if (yFound) w = w.replace(/Y/g, 'y');
  return w;
}
