/**
 * German compound splitting against the embedded lexicon (german-lexicon.ts):
 * a word is split into lexicon words joined by linking morphemes (s, es, n,
 * en, er, e, ens), choosing the cheapest split (fewest parts, listed words
 * before unlisted ones, see the cost constants); non-final parts may
 * also drop a final -e ("Schulbuch" = Schule + Buch); the final part may be
 * inflected (its Snowball stem equals a lexicon word's stem, so
 * "Urlaubsanträge" = Urlaub + Antrag). Words built with the productive
 * suffixes -ung, -heit, -keit, -schaft, -tion, -ität also count as parts
 * without being listed: as a final part when long enough ("Software" +
 * "Aktualisierung"), as a non-final part when followed by the linking -s-
 * ("Archivierung" + s + "Pflicht"). Parts that are themselves compounds
 * (lexicon entries such as "Reisekosten") are split further.
 * Works on lower-case, umlaut-folded text.
 */
import { GERMAN_LEXICON_TEXT } from './german-lexicon.ts';
import * as fold from './fold.ts';
import * as de from './german-stemmer.ts';

// Local copies: module bindings may be compiled to getters.
const foldGerman = fold.foldGerman;
const stemGerman = de.stemGerman;

/** Shortest part (code units) a compound may be split into. */
export const MIN_PART = 3;
/** Shortest word that is tried at all. */
export const MIN_COMPOUND = 6;
/** Longest word that is tried (longer input is left whole). */
export const MAX_COMPOUND = 48;
const LINKS = ['', 's', 'es', 'n', 'en', 'er', 'e', 'ens'];

const LEXICON = new Set<string>();
const LEXICON_STEMS = new Set<string>();
for (const w of GERMAN_LEXICON_TEXT.split(/\s+/)) {
  if (w.length < MIN_PART) continue;
  const f = foldGerman(w);
  LEXICON.add(f);
  LEXICON_STEMS.add(stemGerman(f));
}

/** Number of distinct words in the lexicon. */
export const LEXICON_SIZE = LEXICON.size;

const PRODUCTIVE = ['ung', 'heit', 'keit', 'schaft', 'tion', 'itat'];
const PRODUCTIVE_FINAL = [...PRODUCTIVE, ...PRODUCTIVE.map((s) => s + 'en')];
/** Shortest unlisted -ung/-heit/... word accepted as a non-final part (before -s-). */
const MIN_PRODUCTIVE_HEAD = 7;
/** Shortest unlisted -ung/-heit/... word accepted as the final part. */
const MIN_PRODUCTIVE_FINAL = 9;

/** Costs of a split: every part costs PART, an unlisted part UNLISTED more, an elided -e ELIDED more. */
const PART = 10;
const UNLISTED = 12;
const ELIDED = 1;
const NO = -1;

function endsWithAny(w: string, list: readonly string[]): boolean {
  for (const s of list) if (w.endsWith(s)) return true;
  return false;
}
/** Extra cost of `part` as a listed non-final part (itself, or with an elided -e), or NO. */
function listedHeadCost(part: string): number {
  if (LEXICON.has(part)) return 0;
  if (part.length >= 4 && LEXICON.has(part + 'e')) return ELIDED;
  return NO;
}
/** True when `part` may be an unlisted non-final part (an -ung/-heit/... word before the linking -s-). */
function productiveHead(part: string): boolean {
  return part.length >= MIN_PRODUCTIVE_HEAD && endsWithAny(part, PRODUCTIVE);
}
/** Extra cost of `part` as the final part, or NO. */
function finalCost(part: string, productive: boolean): number {
  if (LEXICON.has(part) || LEXICON_STEMS.has(stemGerman(part))) return 0;
  if (productive && part.length >= MIN_PRODUCTIVE_FINAL && endsWithAny(part, PRODUCTIVE_FINAL)) return UNLISTED;
  return NO;
}

/**
 * A split, its cost, and the summed length of its unlisted parts: between
 * equal costs the shorter unlisted parts win ("Kunde|n|zufriedenheit", not
 * "Kunde|nzufriedenheit"), then the longer leading part.
 */
interface Split {
  parts: string[];
  cost: number;
  len: number;
}

/** Cheapest split of w[from..] into parts (at least two when from is 0), or null; see the cost constants. */
function splitFrom(w: string, from: number, memo: Map<number, Split | null>, productive: boolean): Split | null {
  const known = memo.get(from);
  if (known !== undefined) return known;
  let best: Split | null = null;
  if (from > 0 && w.length - from >= MIN_PART) {
    const c = finalCost(w.slice(from), productive);
    if (c !== NO) best = { parts: [w.slice(from)], cost: PART + c, len: c === UNLISTED ? w.length - from : 0 };
  }
  for (let end = w.length - MIN_PART; end >= from + MIN_PART; end--) {
    const head = w.slice(from, end);
    const listed = listedHeadCost(head);
    const unlisted = listed === NO && productive && w.charCodeAt(end) === 115 && productiveHead(head);
    if (listed === NO && !unlisted) continue;
    for (const link of LINKS) {
      if (link !== '' && !w.startsWith(link, end)) continue;
      const c = listed !== NO ? listed : link === 's' ? UNLISTED : NO;
      if (c === NO) continue;
      const next = end + link.length;
      if (w.length - next < MIN_PART) continue;
      const tail = splitFrom(w, next, memo, productive);
      if (tail === null) continue;
      const cost = PART + c + tail.cost;
      const len = (c === UNLISTED ? head.length : 0) + tail.len;
      if (best === null || cost < best.cost || (cost === best.cost && len < best.len)) {
        best = { parts: [head, ...tail.parts], cost, len };
      }
    }
  }
  memo.set(from, best);
  return best;
}

/**
 * Split of w with every part that is itself a compound of listed words split
 * further; [] if w is no compound. Unlisted (-ung, -heit, ...) parts are only
 * accepted at the top level.
 */
function splitDeep(w: string, depth: number): string[] {
  const split = w.length >= MIN_COMPOUND ? splitFrom(w, 0, new Map(), depth === 0) : null;
  if (split === null || split.parts.length < 2) return [];
  if (depth >= 3) return split.parts;
  const out: string[] = [];
  for (const p of split.parts) {
    const sub = splitDeep(p, depth + 1);
    if (sub.length > 1) out.push(...sub);
    else out.push(p);
  }
  return out;
}

/**
 * Splits a German compound into its parts (lower case, umlauts folded, linking
 * morphemes removed, final part as written). Returns [] when the word is not
 * a compound of lexicon words. Not memoised here: the analyzer caches per word.
 */
export function splitGermanCompound(word: string): string[] {
  const w = foldGerman(word.toLowerCase());
  if (w.length < MIN_COMPOUND || w.length > MAX_COMPOUND) return [];
  return splitDeep(w, 0);
}
