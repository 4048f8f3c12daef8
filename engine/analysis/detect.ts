/**
 * Language detection between German and English from function-word and
 * character statistics over the first few thousand characters: words that
 * are frequent in one language and rare in the other vote, each ä/ö/ü/ß adds
 * half a vote for German. Ties and texts without evidence give 'de', the
 * service's default language. The scan stops early once one language leads
 * decisively (16 votes), so a long text is usually decided by its opening.
 */
import type { Language } from './types.ts';
import { checkText } from './errors.ts';

/** Characters of the text that are looked at. */
export const DETECT_PREFIX = 4000;

const EN_MARKERS = new Set(
  `the and of to is that it for with as on are this be by from at have not which you but were
his they their has had been or its can would there what when who we she her he our these than then them been more only
into also should could about after other such many most some been those any each how why where while does did
`
    .split(/\s+/)
    .filter(Boolean),
);

const DE_MARKERS = new Set(
  `der die und das ist nicht zu den mit von sich des auf für fur im dem ein eine einer eines
einem auch es werden aus er hat dass daß sie nach wird bei um noch wie über uber zum zur haben nur oder aber vor bis
mehr durch sein wurde sind ich wir ihr kann wenn sehr diese dieser diesem diesen keine kein können konnen muss wir
sowie werden wurden ihre seine unter zwischen bereits damit dann doch schon jedoch gegen sollen soll
`
    .split(/\s+/)
    .filter(Boolean),
);

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
/** Marker words are at most this long; longer words are not looked up (nor hashed past it). */
const MAX_MARKER = 8;
const SLOTS = 1024;
/** Open-addressed table of marker-word hashes: 1 = English marker, 2 = German marker, 0 = empty. */
const markerHash = new Int32Array(SLOTS);
const markerLang = new Uint8Array(SLOTS);

/**
 * The letters the detector reads, as lower-case codes: a-z, ä ö ü ß (A-Z, Ä Ö Ü folded). The text
 * is read as UTF-8 bytes: an ASCII byte maps through LETTER (0: a word boundary); ä ö ü ß Ä Ö Ü
 * are the two bytes 0xC3 xx, mapped through AFTER_C3 by their second byte. Every other character
 * is a word boundary, as it is in the UTF-16 reading (each of its bytes is one).
 */
const LETTER = new Uint8Array(128);
for (let c = 97; c <= 122; c++) LETTER[c] = LETTER[c - 32] = c;
const AFTER_C3 = new Uint8Array(64);
AFTER_C3[0xa4 - 0x80] = AFTER_C3[0x84 - 0x80] = 0xe4; // ä Ä
AFTER_C3[0xb6 - 0x80] = AFTER_C3[0x96 - 0x80] = 0xf6; // ö Ö
AFTER_C3[0xbc - 0x80] = AFTER_C3[0x9c - 0x80] = 0xfc; // ü Ü
AFTER_C3[0x9f - 0x80] = 0xdf; // ß

/** The prefix as UTF-8 (at most 3 bytes per UTF-16 code unit) plus a closing space. */
const utf8 = new TextEncoder();
const scratch = new Uint8Array(DETECT_PREFIX * 3 + 1);

/** FNV-1a over the letter codes (UTF-16 code units) of a lower-case word, as the scanner computes it. */
function hashWord(w: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), FNV_PRIME);
  return h;
}
function addMarker(w: string, lang: number): void {
  if (w.length > MAX_MARKER) throw new Error(`marker word '${w}' is longer than ${MAX_MARKER}`);
  const h = hashWord(w);
  let i = h & (SLOTS - 1);
  while (markerLang[i] !== 0) {
    if (markerHash[i] === h) return;
    i = (i + 1) & (SLOTS - 1);
  }
  markerHash[i] = h;
  markerLang[i] = lang;
}
for (const w of EN_MARKERS) addMarker(w, 1);
for (const w of DE_MARKERS) if (!EN_MARKERS.has(w)) addMarker(w, 2);

/**
 * Evidence is counted in quarter votes (integers, so no rounding): a marker word 4, an
 * umlaut or ß 2, a weak letter pattern 1 (th, wh, sh, -ly, -ing for English; sch, cht,
 * -ung, z for German).
 */
const MARKER = 4;
const UMLAUT = 2;
const WEAK = 1;
/** English must lead by more than this (half a vote) to be chosen ('de' is the default when unsure). */
const MARGIN = 2;
/**
 * The scan stops at the end of a word once one language leads by this much (16 votes): the
 * evidence is decisive, and the rest of the prefix is only read when it is not.
 */
const DECISIVE_LEAD = 64;

/**
 * Guesses the language of `text` ('de' when unsure). Marker words count 1
 * (matched by hash, without allocation), umlauts/ß 0.5, letter patterns 0.25.
 * Reads at most DETECT_PREFIX characters, and stops earlier at the end of the
 * first word where one language leads by 16 votes (DECISIVE_LEAD).
 */
export function detectLanguage(text: string): Language {
  checkText(text);
  const b = scratch;
  const n = utf8.encodeInto(text.length > DETECT_PREFIX ? text.slice(0, DETECT_PREFIX) : text, b).written;
  b[n] = 32; // ends the last word
  let lead = 0; // English minus German evidence, in quarter votes
  let len = 0;
  let h = FNV_OFFSET;
  let p1 = 0; // previous letters in the word (lower case), 0 before the word's start
  let p2 = 0;
  let p3 = 0;
  for (let i = 0; i <= n; i++) {
    const u = b[i];
    let c = 0;
    if (u < 0x80) c = LETTER[u];
    else if (u === 0xc3) {
      const v = b[i + 1];
      if (v >= 0x80 && v < 0xc0) c = AFTER_C3[v - 0x80];
      if (c !== 0) i++;
    }
    if (c !== 0) {
      if (c >= 0xdf) lead -= UMLAUT;
      else if (c === 104) {
        // h
        if (p1 === 116 || p1 === 119)
          lead += WEAK; // th, wh
        else if (p1 === 115) lead += p2 === 99 ? -WEAK : WEAK; // sch / sh
      } else if (c === 116) {
        if (p1 === 104 && p2 === 99) lead -= WEAK; // cht
      } else if (c === 122) lead -= WEAK; // z
      if (len < MAX_MARKER) h = Math.imul(h ^ c, FNV_PRIME);
      len++;
      p3 = p2;
      p2 = p1;
      p1 = c;
      continue;
    }
    if (len === 0) continue;
    if (len <= MAX_MARKER) {
      let s = h & (SLOTS - 1);
      for (;;) {
        const l = markerLang[s];
        if (l === 0) break;
        if (markerHash[s] === h) {
          lead += l === 1 ? MARKER : -MARKER;
          break;
        }
        s = (s + 1) & (SLOTS - 1);
      }
    }
    if (len >= 4) {
      if (p2 === 108 && p1 === 121)
        lead += WEAK; // -ly
      else if (p2 === 110 && p1 === 103) {
        if (p3 === 105)
          lead += WEAK; // -ing
        else if (p3 === 117) lead -= WEAK; // -ung
      }
    }
    if (lead >= DECISIVE_LEAD || lead <= -DECISIVE_LEAD) break;
    len = 0;
    h = FNV_OFFSET;
    p1 = p2 = p3 = 0;
  }
  return lead > MARGIN ? 'en' : 'de';
}
