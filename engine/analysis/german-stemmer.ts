/**
 * Snowball German stemmer, written from the published Snowball description
 * (algorithms/german.sbl, the current version that also maps ae/oe/ue to
 * umlauts, removes -erin/-erinnen, -ln/-lns, -et after an et-ending, and a
 * final apostrophe suffix). Input must already be lower case; output has no
 * umlauts and no ß (the postlude folds them), so "häuser" and "hauser" both
 * stem to "haus". Checked against the published snowball-data lists.
 */
import { gopastVNonV } from './snowball-regions.ts';
import * as sfx from './suffix-index.ts';

// Local copies: module bindings may be compiled to getters, too slow per word.
const longestSuffix = sfx.longestSuffix;
const suffixIndex = sfx.suffixIndex;

/** German vowels: a e i o u y ä ö ü (lower case only; U and Y are marked consonants). */
function isV(c: number): boolean {
  return (
    c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121 || c === 0xe4 || c === 0xf6 || c === 0xfc
  );
}
/** s_ending: b d f g h k l m n r t. */
function isSEnding(c: number): boolean {
  return (
    c === 98 ||
    c === 100 ||
    c === 102 ||
    c === 103 ||
    c === 104 ||
    c === 107 ||
    c === 108 ||
    c === 109 ||
    c === 110 ||
    c === 114 ||
    c === 116
  );
}
/** et_ending: d f g k l m n r s t z ä and the marked U. */
function isEtEnding(c: number): boolean {
  return (
    c === 100 ||
    c === 102 ||
    c === 103 ||
    c === 107 ||
    c === 108 ||
    c === 109 ||
    c === 110 ||
    c === 114 ||
    c === 115 ||
    c === 116 ||
    c === 122 ||
    c === 0xe4 ||
    c === 85
  );
}
/** Stems before -et that keep it (ticket, planet, geordnet, internet, tret...). */
const ET_KEEP = ['geordn', 'intern', 'tick', 'plan', 'tr'];
/** st_ending: s_ending without r. */
function isStEnding(c: number): boolean {
  return c !== 114 && isSEnding(c);
}

const STEP1 = suffixIndex(['erinnen', 'erin', 'lns', 'ern', 'em', 'er', 'en', 'es', 'ln', 'e', 's']);
const STEP2 = suffixIndex(['est', 'en', 'er', 'et', 'st']);
const APOSTROPHE = suffixIndex(["'sch", "'s", "'"]);
const STEP3 = suffixIndex(['isch', 'lich', 'heit', 'keit', 'end', 'ung', 'ig', 'ik']);

/** The prelude: mark u/y between vowels, then ß -> ss, ae/oe/ue -> ä/ö/ü (not after q). */
function prelude(word: string): string {
  const n = word.length;
  const c: number[] = new Array(n);
  for (let i = 0; i < n; i++) c[i] = word.charCodeAt(i);
  for (let i = 1; i + 1 < n; i++) {
    const x = c[i];
    if ((x === 117 || x === 121) && isV(c[i - 1]) && isV(c[i + 1])) c[i] = x === 117 ? 85 : 89;
  }
  const out: number[] = [];
  let i = 0;
  while (i < n) {
    const x = c[i];
    if (x === 0xdf) {
      out.push(115, 115);
      i++;
      continue;
    }
    if (i + 1 < n && c[i + 1] === 101) {
      if (x === 97) {
        out.push(0xe4);
        i += 2;
        continue;
      }
      if (x === 111) {
        out.push(0xf6);
        i += 2;
        continue;
      }
      if (x === 117) {
        out.push(0xfc);
        i += 2;
        continue;
      }
    }
    if (x === 113 && i + 1 < n && c[i + 1] === 117) {
      out.push(113, 117);
      i += 2;
      continue;
    }
    out.push(x);
    i++;
  }
  return String.fromCharCode(...out);
}

/** Stems one lower-case German word. */
export function stemGerman(word: string): string {
  let w = prelude(word);

  // mark_regions
  let p1 = w.length;
  let p2 = w.length;
  if (w.length >= 3) {
    const r1 = gopastVNonV(w, 0, isV);
    if (r1 >= 0) {
      p1 = r1 < 3 ? 3 : r1;
      const r2 = gopastVNonV(w, r1, isV);
      if (r2 >= 0) p2 = r2;
    }
  }

  // step 1
  const s1 = longestSuffix(w, STEP1);
  if (s1 !== '' && w.length - s1.length >= p1) {
    const at = w.length - s1.length;
    switch (s1) {
      case 'em':
        if (!(at >= 4 && w.startsWith('syst', at - 4))) w = w.slice(0, at);
        break;
      case 'ern':
      case 'er':
      case 'erin':
      case 'erinnen':
        w = w.slice(0, at);
        break;
      case 'e':
      case 'en':
      case 'es':
        w = w.slice(0, at);
        if (w.endsWith('niss')) w = w.slice(0, -1);
        break;
      case 's':
        if (at > 0 && isSEnding(w.charCodeAt(at - 1))) w = w.slice(0, at);
        break;
      default: // 'ln', 'lns'
        w = w.slice(0, at) + 'l';
    }
  }

  // step 2
  const s2 = longestSuffix(w, STEP2);
  if (s2 !== '' && w.length - s2.length >= p1) {
    const at = w.length - s2.length;
    if (s2 === 'st') {
      if (at - 1 >= 3 && isStEnding(w.charCodeAt(at - 1))) w = w.slice(0, at);
    } else if (s2 === 'et') {
      if (at > 0 && isEtEnding(w.charCodeAt(at - 1))) {
        const stem = w.slice(0, at);
        let keep = false;
        for (const k of ET_KEEP)
          if (stem.endsWith(k)) {
            keep = true;
            break;
          }
        if (!keep) w = stem;
      }
    } else w = w.slice(0, at);
  }

  // step 3
  const s3 = longestSuffix(w, STEP3);
  if (s3 !== '' && w.length - s3.length >= p2) {
    const at = w.length - s3.length;
    const prevIsE = at > 0 && w.charCodeAt(at - 1) === 101;
    switch (s3) {
      case 'end':
      case 'ung':
        w = w.slice(0, at);
        if (w.endsWith('ig') && w.length - 2 >= p2 && !(w.length > 2 && w.charCodeAt(w.length - 3) === 101))
          w = w.slice(0, -2);
        break;
      case 'ig':
      case 'ik':
      case 'isch':
        if (!prevIsE) w = w.slice(0, at);
        break;
      case 'lich':
      case 'heit':
        w = w.slice(0, at);
        if ((w.endsWith('er') || w.endsWith('en')) && w.length - 2 >= p1) w = w.slice(0, -2);
        break;
      default: {
        // 'keit'
        w = w.slice(0, at);
        const k = w.endsWith('lich') ? 4 : w.endsWith('ig') ? 2 : 0;
        if (k > 0 && w.length - k >= p2) w = w.slice(0, -k);
      }
    }
  }

  // step 4: possessive/elision apostrophe, when at least two letters precede it
  const s4 = longestSuffix(w, APOSTROPHE);
  if (s4 !== '' && w.length - s4.length >= 2) w = w.slice(0, w.length - s4.length);

  // postlude
  let needs = false;
  for (let i = 0; i < w.length; i++) {
    const x = w.charCodeAt(i);
    if (x === 85 || x === 89 || x === 0xe4 || x === 0xf6 || x === 0xfc) {
      needs = true;
      break;
    }
  }
  if (!needs) return w;
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const x = w.charCodeAt(i);
    out += x === 85 ? 'u' : x === 89 ? 'y' : x === 0xe4 ? 'a' : x === 0xf6 ? 'o' : x === 0xfc ? 'u' : w[i];
  }
  return out;
}
