/**
 * The analyzers: text -> index tokens (analyze) and query text -> query words
 * (analyzeQuery), for English and German.
 *
 * Per word: lower-case; stopword check (stopwords are dropped but take their
 * position); English: fold diacritics, Porter2 stem; German: Snowball German
 * stem, then umlaut/diacritic folding, plus the compound's parts (stemmed the
 * same way) at the same position. A technical compound ("foo-bar.baz") is
 * indexed whole (lower case, unstemmed) at its first part's position, and its
 * parts at consecutive positions. Word results are memoised per language in a
 * bounded cache, so the stemmers run once per distinct word.
 */
import type { Language, QueryWord, Token } from './types.ts';
import * as tok from './tokenizer.ts';
import * as stop from './stopwords.ts';
import * as en from './english-stemmer.ts';
import * as de from './german-stemmer.ts';
import * as fold from './fold.ts';
import * as dc from './decompound.ts';
import * as wt from './word-table.ts';
import * as errs from './errors.ts';

// Local copies: module bindings may be compiled to getters, too slow per word.
const tokenize = tok.tokenize;
const scanInto = tok.scanInto;
const borrowStream = tok.borrowStream;
const releaseStream = tok.releaseStream;
const F_COMPOUND = tok.F_COMPOUND;
const RECORD = tok.RECORD;
const F_CURLY_APOS = tok.F_CURLY_APOS;
const F_NON_ASCII = tok.F_NON_ASCII;
const F_UPPER = tok.F_UPPER;
const ENGLISH_STOPWORDS = stop.ENGLISH_STOPWORDS;
const GERMAN_STOPWORDS = stop.GERMAN_STOPWORDS;
const stemEnglish = en.stemEnglish;
const stemGerman = de.stemGerman;
const foldLatin = fold.foldLatin;
const splitGermanCompound = dc.splitGermanCompound;
const WordTable = wt.WordTable;
type WordTable<V> = wt.WordTable<V>;
const hashString = wt.hashString;
const checkText: (text: unknown) => asserts text is string = errs.checkText;
const checkLanguage: (lang: unknown) => asserts lang is Language = errs.checkLanguage;

/** Longest word (UTF-16 units) that is indexed; longer words only take a position. */
export const MAX_WORD_LENGTH = 64;
/** Entries per language in the word cache before it is cleared. */
export const WORD_CACHE_LIMIT = 300_000;

/** A word's analysis: its term, null for a stopword, or [term, ...compound parts]. */
type Entry = string | null | string[];

const tables: Record<Language, WordTable<Entry>> = {
  de: new WordTable<Entry>(WORD_CACHE_LIMIT),
  en: new WordTable<Entry>(WORD_CACHE_LIMIT),
};

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function germanEntry(w: string): Entry {
  if (GERMAN_STOPWORDS.has(w)) return null;
  const term = foldLatin(stemGerman(w));
  if (term === '') return null; // e.g. a word of combining marks only
  const parts = splitGermanCompound(w);
  if (parts.length === 0) return term;
  const out = [term];
  const add = (p: string): void => {
    const t = foldLatin(stemGerman(p));
    if (t.length >= 2 && !out.includes(t)) out.push(t);
  };
  for (const p of parts) add(p);
  if (parts.length >= 3) {
    // the leading and trailing sub-compounds, e.g. Datenschutz|beauftragter
    add(parts.slice(0, -1).join(''));
    add(parts.slice(1).join(''));
  }
  return out;
}

function englishEntry(w: string): Entry {
  if (ENGLISH_STOPWORDS.has(w)) return null;
  const folded = foldLatin(w);
  return folded === '' ? null : stemEnglish(folded);
}

function computeEntry(w: string, lang: Language): Entry {
  return isDigit(w.charCodeAt(0)) && isDigit(w.charCodeAt(w.length - 1)) ? w : lang === 'de' ? germanEntry(w) : englishEntry(w);
}

/** Analysis of one lower-case word in `lang`, memoised. */
function wordEntry(w: string, lang: Language): Entry {
  const table = tables[lang];
  const h = hashString(w);
  let e = table.get(w, h);
  if (e === undefined) {
    e = computeEntry(w, lang);
    table.set(w, h, e);
  }
  return e;
}

/** Analysis of the word text[start, end) with tokenizer flags, memoised; ASCII words are looked up in place. */
function rangeEntry(text: string, start: number, end: number, flags: number, h: number, table: WordTable<Entry>, lang: Language): Entry {
  if ((flags & F_NON_ASCII) === 0) {
    let e = table.getRange(text, start, end, h);
    if (e === undefined) {
      const w = lowerWord(text, start, end, flags);
      e = computeEntry(w, lang);
      table.set(w, h, e);
    }
    return e;
  }
  return wordEntry(lowerWord(text, start, end, flags), lang);
}

function lowerWord(text: string, start: number, end: number, flags: number): string {
  let w = text.slice(start, end);
  if ((flags & (F_UPPER | F_NON_ASCII)) !== 0) w = w.toLowerCase();
  if ((flags & F_CURLY_APOS) !== 0) w = w.replace(/\u2019/g, "'");
  return w;
}

function wholeTerm(text: string, start: number, end: number): string {
  const w = text.slice(start, end).toLowerCase();
  return foldLatin(w.indexOf('\u2019') >= 0 ? w.replace(/\u2019/g, "'") : w);
}

/** Receives one index token; see Token for the meaning of the arguments. */
export type TokenCallback = (term: string, position: number, start: number, end: number) => void;

/**
 * Index-time analysis without allocating Token objects: calls `onToken` for
 * every term in text order (tokens sharing a position are reported together)
 * and returns the number of positions used (the field length, stopwords included).
 */
export function analyzeEach(text: string, lang: Language, onToken: TokenCallback): number {
  checkText(text);
  checkLanguage(lang);
  const table = tables[lang];
  const stream = borrowStream();
  let pos = 0;
  try {
    scanInto(text, stream);
    const d = stream.data;
    for (let r = 0, end = stream.count * RECORD; r < end; r += RECORD) {
      const flags = d[r];
      const start = d[r + 1];
      const stop = d[r + 2];
      if ((flags & F_COMPOUND) !== 0) {
        onToken(wholeTerm(text, start, stop), pos, start, stop);
        continue;
      }
      if (stop - start <= MAX_WORD_LENGTH) {
        const e = rangeEntry(text, start, stop, flags, d[r + 3], table, lang);
        if (typeof e === 'string') onToken(e, pos, start, stop);
        else if (e !== null) for (let i = 0; i < e.length; i++) onToken(e[i], pos, start, stop);
      }
      pos++;
    }
  } finally {
    releaseStream(stream);
  }
  return pos;
}

/** Index-time analysis: every term with its position and UTF-16 offsets. */
export function analyze(text: string, lang: Language): Token[] {
  const out: Token[] = [];
  analyzeEach(text, lang, (term, position, start, end) => {
    out.push({ term, position, start, end });
  });
  return out;
}

function termOf(e: Entry): string | null {
  return e === null ? null : typeof e === 'string' ? e : e[0];
}
function addParts(e: Entry, into: string[], exclude: readonly string[]): void {
  if (e === null || typeof e === 'string') return;
  for (let i = 1; i < e.length; i++) if (!into.includes(e[i]) && !exclude.includes(e[i])) into.push(e[i]);
}

/**
 * Query-time analysis, one QueryWord per surface word. `terms` holds the stem
 * in the hint language and, when it differs and is no stopword there, the
 * other language's stem; a stopword of the hint language has no terms.
 * German compound parts go to `parts`. A technical compound ("config_file.ts")
 * gives one QueryWord per part, in order (so phrases line up with index
 * positions), and its first part also carries the whole compound's index
 * term, first, because the index holds it at that position.
 */
export function analyzeQuery(text: string, lang: Language): QueryWord[] {
  checkText(text);
  checkLanguage(lang);
  const other: Language = lang === 'de' ? 'en' : 'de';
  const words: QueryWord[] = [];
  let whole: string | null = null;
  tokenize(text, {
    compound(start, end) {
      whole = wholeTerm(text, start, end);
    },
    word(start, end, flags) {
      const surface = text.slice(start, end);
      const prefix: string | null = whole;
      whole = null;
      const terms: string[] = prefix === null ? [] : [prefix];
      const parts: string[] = [];
      if (end - start <= MAX_WORD_LENGTH) {
        const w = lowerWord(text, start, end, flags);
        const hint = wordEntry(w, lang);
        const main = termOf(hint);
        if (main !== null) {
          if (!terms.includes(main)) terms.push(main);
          const alt = wordEntry(w, other);
          const second = termOf(alt);
          if (second !== null && !terms.includes(second)) terms.push(second);
          addParts(hint, parts, terms);
          addParts(alt, parts, terms);
        } else if (terms.length === 0) {
          words.push({ text: surface, terms, parts, stopword: true });
          return;
        }
      }
      words.push({ text: surface, terms, parts, stopword: false });
    },
  });
  return words;
}
