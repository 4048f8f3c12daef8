/**
 * Language detection between German and English from function-word and
 * character statistics over the first few thousand characters: words that
 * are frequent in one language and rare in the other vote, each ä/ö/ü/ß adds
 * half a vote for German. Ties and texts without evidence give 'de', the
 * service's default language.
 */
import type { Language } from './types.ts';
import { checkText } from './errors.ts';

/** Characters of the text that are looked at. */
export const DETECT_PREFIX = 4000;

const EN_MARKERS = new Set(`the and of to is that it for with as on are this be by from at have not which you but were
his they their has had been or its can would there what when who we she her he our these than then them been more only
into also should could about after other such many most some been those any each how why where while does did
`.split(/\s+/).filter(Boolean));

const DE_MARKERS = new Set(`der die und das ist nicht zu den mit von sich des auf für fur im dem ein eine einer eines
einem auch es werden aus er hat dass daß sie nach wird bei um noch wie über uber zum zur haben nur oder aber vor bis
mehr durch sein wurde sind ich wir ihr kann wenn sehr diese dieser diesem diesen keine kein können konnen muss wir
sowie werden wurden ihre seine unter zwischen bereits damit dann doch schon jedoch gegen sollen soll
`.split(/\s+/).filter(Boolean));

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
const SLOTS = 1024;
/** Open-addressed table of marker-word hashes: 1 = English marker, 2 = German marker, 0 = empty. */
const markerHash = new Int32Array(SLOTS);
const markerLang = new Uint8Array(SLOTS);

/** FNV-1a over the UTF-16 code units of a lower-case word (as the scanner computes it). */
function hashWord(w: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), FNV_PRIME);
  return h;
}
function addMarker(w: string, lang: number): void {
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

function markerOf(h: number): number {
  let i = h & (SLOTS - 1);
  for (;;) {
    const l = markerLang[i];
    if (l === 0) return 0;
    if (markerHash[i] === h) return l;
    i = (i + 1) & (SLOTS - 1);
  }
}

/** Weight of one weak letter-pattern signal (th, wh, sh, -ly, -ing for English; sch, cht, -ung, z for German). */
const WEAK = 0.25;
/** English must lead by more than this to be chosen ('de' is the default when unsure). */
const MARGIN = 0.5;

/**
 * Guesses the language of `text` ('de' when unsure). Marker words count 1
 * (matched by hash, without allocation), umlauts/ß 0.5, letter patterns 0.25.
 */
export function detectLanguage(text: string): Language {
  checkText(text);
  const n = Math.min(text.length, DETECT_PREFIX);
  let en = 0;
  let de = 0;
  let len = 0;
  let h = FNV_OFFSET;
  let p1 = 0; // previous letter in the word (lower case), 0 at a word start
  let p2 = 0;
  for (let i = 0; i <= n; i++) {
    let c = i < n ? text.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) c += 32;
    else if (c === 0xc4 || c === 0xd6 || c === 0xdc) c += 32;
    if ((c >= 97 && c <= 122) || c === 0xe4 || c === 0xf6 || c === 0xfc || c === 0xdf) {
      if (c >= 0xdf) de += 0.5;
      else if (c === 104) { // h
        if (p1 === 116 || p1 === 119) en += WEAK; // th, wh
        else if (p1 === 115) { if (p2 === 99) de += WEAK; else en += WEAK; } // sch / sh
      } else if (c === 116 && p1 === 104 && p2 === 99) de += WEAK; // cht
      else if (c === 122) de += WEAK; // z
      h = Math.imul(h ^ c, FNV_PRIME);
      len++;
      p2 = p1;
      p1 = c;
      continue;
    }
    if (len > 0) {
      if (len <= 8) {
        const m = markerOf(h);
        if (m === 1) en++;
        else if (m === 2) de++;
      }
      if (len >= 4) {
        if (p2 === 108 && p1 === 121) en += WEAK; // -ly
        else if (p2 === 110 && p1 === 103 && i >= 3) {
          const before = text.charCodeAt(i - 3) | 32;
          if (before === 105) en += WEAK; // -ing
          else if (before === 117) de += WEAK; // -ung
        }
      }
      len = 0;
      h = FNV_OFFSET;
      p1 = 0;
      p2 = 0;
    }
  }
  return en - de > MARGIN ? 'en' : 'de';
}
