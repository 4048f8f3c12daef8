/**
 * The analyzers: text -> index tokens (analyze) and query text -> query words
 * (analyzeQuery), for English and German.
 *
 * Per word: without its ignorable format characters (soft hyphens …, tokenizer.ts); NFKC for
 * compatibility characters and combining marks ("ﬁle" = "file", fold.ts foldCompatibility);
 * lower-case; stopword check (stopwords are dropped but take their
 * position); English: fold diacritics, Porter2 stem; German: fold diacritics
 * other than umlauts and ß, Snowball German stem, then umlaut folding, plus the
 * compound's parts (stemmed the same way) at the same position. A technical compound ("foo-bar.baz") is
 * indexed whole (lower case, unstemmed) at its first part's position, and its
 * parts at consecutive positions; a compound joined by hyphens only ("IL-6",
 * "non-coding") has the term of its closed form ("il6", "noncod") as its whole.
 * A word mixing letters and digits ("p53") also carries its letter and digit
 * runs as parts at its position; Greek letters in Latin-script words are named
 * ("tnfα" = "tnfalpha"); English words take American spelling (normalize.ts).
 * Word results are memoised per language in a bounded cache, so the stemmers
 * run once per distinct word.
 *
 * Index terms are interned in a term registry (id <-> string) shared by both languages;
 * cache entries hold term ids, and analyzeTerms() reports ids, so the indexing buffer maps
 * words to its term ids by array lookups instead of hashing strings. The registry is bounded:
 * past TERM_REGISTRY_LIMIT terms (see setTermRegistryLimit) it is replaced by a new one (a new
 * epoch) at the start of the next analysis call, and the word caches are cleared with it.
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
import * as norm from './normalize.ts';

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
const F_IGNORABLE = tok.F_IGNORABLE;
const removeIgnorables = tok.removeIgnorables;
const ENGLISH_STOPWORDS = stop.ENGLISH_STOPWORDS;
const GERMAN_STOPWORDS = stop.GERMAN_STOPWORDS;
const stemEnglish = en.stemEnglish;
const stemGerman = de.stemGerman;
const foldLatin = fold.foldLatin;
const foldCompatibility = fold.foldCompatibility;
const foldAccents = fold.foldAccents;
const splitGermanCompound = dc.splitGermanCompound;
const WordTable = wt.WordTable;
type WordTable = wt.WordTable;
const MISSING = wt.MISSING;
const hashString = wt.hashString;
const foldGreek = norm.foldGreek;
const americanSpelling = norm.americanSpelling;
const alnumRuns = norm.alnumRuns;
const joinHyphenated = norm.joinHyphenated;
const checkText: (text: unknown) => asserts text is string = errs.checkText;
const checkLanguage: (lang: unknown) => asserts lang is Language = errs.checkLanguage;

/** Longest word (UTF-16 units) that is indexed; longer words only take a position. */
export const MAX_WORD_LENGTH = 64;
/** Entries per language in the word cache before it is cleared. */
export const WORD_CACHE_LIMIT = 300_000;

/** A word's analysis as term ids: its term, null for a stopword, or [term, ...compound parts]. */
type Entry = number | null | number[];

/**
 * An Entry as the word tables store it: a term id (>= 0), NO_TERMS for null, or
 * -2 - i for the list multiTerms[lang][i].
 */
const NO_TERMS = -1;

/** Terms interned before the registry is replaced (bounds its memory). */
export const TERM_REGISTRY_LIMIT = 1 << 20;
let registryLimit = TERM_REGISTRY_LIMIT;

/** Sets the registry bound (default TERM_REGISTRY_LIMIT); small values let tests cross epochs quickly. */
export function setTermRegistryLimit(limit: number): void {
  registryLimit = Math.max(1, Math.floor(limit));
}

let termStrings: string[] = [];
let termIdMap = new Map<string, number>();
let registryEpoch = 0;

/** Id of term `t` in the current registry (interned on first use). */
function internTerm(t: string): number {
  let id = termIdMap.get(t);
  if (id === undefined) {
    id = termStrings.length;
    termStrings.push(t);
    termIdMap.set(t, id);
  }
  return id;
}

/** Starts a new registry epoch when the current one is full (only between analysis calls). */
function checkRegistry(): void {
  if (termStrings.length < registryLimit) return;
  termStrings = [];
  termIdMap = new Map();
  registryEpoch++;
  wholeCache.de.clear();
  wholeCache.en.clear();
  clearWords('de');
  clearWords('en');
}

const tables: Record<Language, WordTable> = {
  de: new WordTable(WORD_CACHE_LIMIT),
  en: new WordTable(WORD_CACHE_LIMIT),
};
/** Term lists of the words of tables[lang] with more than one term. */
const multiTerms: Record<Language, number[][]> = { de: [], en: [] };

function clearWords(lang: Language): void {
  tables[lang].clear();
  multiTerms[lang].length = 0;
}

/** Stores word w (hash h) with its entry in tables[lang]; returns the entry's code. */
function remember(w: string, h: number, e: Entry, lang: Language): number {
  const table = tables[lang];
  if (table.size >= WORD_CACHE_LIMIT) clearWords(lang);
  let code: number;
  if (e === null) code = NO_TERMS;
  else if (typeof e === 'number') code = e;
  else {
    const list = multiTerms[lang];
    code = -2 - list.length;
    list.push(e);
  }
  table.set(w, h, code);
  return code;
}

function decode(code: number, lang: Language): Entry {
  return code >= 0 ? code : code === NO_TERMS ? null : multiTerms[lang][-2 - code];
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function germanEntry(word: string): Entry {
  if (GERMAN_STOPWORDS.has(word)) return null;
  // accents other than umlauts go before stemming: "Café" and "Cafe" must give one stem
  const w = foldAccents(word);
  const term = foldLatin(stemGerman(w));
  if (term === '') return null; // e.g. a word of combining marks only
  const parts = splitGermanCompound(w);
  if (parts.length === 0) return internTerm(term);
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
  return out.map(internTerm);
}

function englishEntry(w: string): Entry {
  if (ENGLISH_STOPWORDS.has(w)) return null;
  const folded = foldLatin(w);
  return folded === '' ? null : internTerm(stemEnglish(americanSpelling(folded)));
}

/** Most letter/digit runs a word may have to get them as parts ("nih3t3": 4); longer mixes (hashes, ids) stay whole. */
export const MAX_ALNUM_RUNS = 4;

/** Index term of a plain lower-case word (no digits) in `lang`, null for a stopword. */
function plainTerm(w: string, lang: Language): string | null {
  if (lang === 'de') return GERMAN_STOPWORDS.has(w) ? null : foldLatin(stemGerman(foldAccents(w))) || null;
  if (ENGLISH_STOPWORDS.has(w)) return null;
  return stemEnglish(americanSpelling(foldLatin(w))) || null;
}

/** `e` plus, for a word mixing letters and digits ("p53", "il6"), its runs as parts at the same position. */
function withAlnumParts(w: string, e: Entry, lang: Language): Entry {
  if (e === null) return e;
  const runs = alnumRuns(w);
  if (runs === null || runs.length > MAX_ALNUM_RUNS) return e;
  const out = typeof e === 'number' ? [e] : [...e];
  for (const r of runs) {
    const t = isDigit(r.charCodeAt(0)) ? r : plainTerm(r, lang);
    if (t === null) continue;
    const id = internTerm(t);
    if (!out.includes(id)) out.push(id);
  }
  return out.length === 1 ? out[0] : out;
}

function computeEntry(word: string, lang: Language): Entry {
  const w = foldGreek(word);
  const e =
    isDigit(w.charCodeAt(0)) && isDigit(w.charCodeAt(w.length - 1))
      ? internTerm(w)
      : lang === 'de'
        ? germanEntry(w)
        : englishEntry(w);
  return withAlnumParts(w, e, lang);
}

/** Code (see NO_TERMS) of the analysis of one lower-case word in `lang`, memoised. */
function wordCode(w: string, lang: Language): number {
  const h = hashString(w);
  const code = tables[lang].get(w, h);
  return code !== MISSING ? code : remember(w, h, computeEntry(w, lang), lang);
}

/** Analysis of one lower-case word in `lang`, memoised. */
function wordEntry(w: string, lang: Language): Entry {
  return decode(wordCode(w, lang), lang);
}

/** Code of the word text[start, end) with tokenizer flags, memoised; ASCII words are looked up in place. */
function rangeCode(
  text: string,
  start: number,
  end: number,
  flags: number,
  h: number,
  table: WordTable,
  lang: Language,
): number {
  if ((flags & F_NON_ASCII) === 0) {
    const code = table.getRange(text, start, end, h);
    return code !== MISSING ? code : newRange(text, start, end, flags, h, lang);
  }
  return wordCode(lowerWord(text, start, end, flags), lang);
}

/** rangeCode of an ASCII word not in the table yet. */
function newRange(text: string, start: number, end: number, flags: number, h: number, lang: Language): number {
  const w = lowerWord(text, start, end, flags);
  return remember(w, h, computeEntry(w, lang), lang);
}

function lowerWord(text: string, start: number, end: number, flags: number): string {
  let w = text.slice(start, end);
  if ((flags & F_IGNORABLE) !== 0) w = removeIgnorables(w);
  if ((flags & F_NON_ASCII) !== 0) w = foldCompatibility(w);
  if ((flags & (F_UPPER | F_NON_ASCII)) !== 0) w = w.toLowerCase();
  if ((flags & F_CURLY_APOS) !== 0) w = w.replace(/\u2019/g, "'");
  return ownCopy(w);
}

/** Shortest substring V8 represents as a view of its parent string (SlicedString::kMinLength). */
const MIN_SLICED_LENGTH = 13;

/**
 * `s` as a string of its own: a long substring of a document would otherwise keep the whole
 * document text alive for as long as a cache (word table, term registry) holds the word or its stem.
 */
function ownCopy(s: string): string {
  return s.length < MIN_SLICED_LENGTH ? s : (' ' + s).slice(1);
}

/** Whole terms of hyphenated compounds, per language, memoised (bounded like the word caches). */
const wholeCache: Record<Language, Map<string, string>> = { de: new Map(), en: new Map() };

/**
 * Index term of the technical compound text[start, end): with '.' or '_' the literal text, lower
 * case and folded; joined by hyphens only, the index term of its closed form, the word written
 * without the hyphens ("T-cells" -> "tcell" as "Tcells", "IL-1β" -> "il1beta", "non-coding" -> "noncod").
 */
function wholeTerm(text: string, start: number, end: number, lang: Language): string {
  let w = ownCopy(foldCompatibility(removeIgnorables(text.slice(start, end))).toLowerCase());
  if (w.indexOf('\u2019') >= 0) w = w.replace(/\u2019/g, "'");
  if (w.indexOf('.') >= 0 || w.indexOf('_') >= 0) return foldLatin(w);
  const cache = wholeCache[lang];
  let t = cache.get(w);
  if (t === undefined) {
    const closed = joinHyphenated(w);
    const entry = closed.length <= MAX_WORD_LENGTH ? computeEntry(closed, lang) : null;
    t = (entry === null ? null : termOf(entry)) ?? foldLatin(closed);
    if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
    cache.set(w, t);
  }
  return t;
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
  checkRegistry();
  const strings = termStrings;
  const table = tables[lang];
  const multi = multiTerms[lang];
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
        onToken(wholeTerm(text, start, stop, lang), pos, start, stop);
        continue;
      }
      if (stop - start <= MAX_WORD_LENGTH) {
        const code = rangeCode(text, start, stop, flags, d[r + 3], table, lang);
        if (code >= 0) onToken(strings[code], pos, start, stop);
        else if (code !== NO_TERMS) {
          const e = multi[-2 - code];
          for (let i = 0; i < e.length; i++) onToken(strings[e[i]], pos, start, stop);
        }
      }
      pos++;
    }
  } finally {
    releaseStream(stream);
  }
  return pos;
}

/**
 * A reusable buffer of index terms as registry ids: `count` (id, position) pairs in text
 * order, the registry epoch they belong to and that epoch's id -> string array.
 */
export class TermStream {
  ids = new Int32Array(256);
  positions = new Int32Array(256);
  count = 0;
  epoch = 0;
  strings: readonly string[] = [];

  /** Room for `more` additional terms. */
  reserve(more: number): void {
    const need = this.count + more;
    if (need <= this.ids.length) return;
    let cap = this.ids.length * 2;
    while (cap < need) cap *= 2;
    const ids = new Int32Array(cap);
    ids.set(this.ids.subarray(0, this.count));
    const positions = new Int32Array(cap);
    positions.set(this.positions.subarray(0, this.count));
    this.ids = ids;
    this.positions = positions;
  }

  /** Appends a term id at a position (no bounds check: reserve first). */
  push(id: number, position: number): void {
    const i = this.count++;
    this.ids[i] = id;
    this.positions[i] = position;
  }
}

/**
 * Index-time analysis into `out` (cleared first): the same terms and positions as analyze(),
 * as registry ids. Returns the number of positions used (as analyzeEach).
 */
export function analyzeTerms(text: string, lang: Language, out: TermStream): number {
  checkText(text);
  checkLanguage(lang);
  checkRegistry();
  out.count = 0;
  out.epoch = registryEpoch;
  out.strings = termStrings;
  const table = tables[lang];
  const multi = multiTerms[lang];
  const stream = borrowStream();
  let pos = 0;
  try {
    scanInto(text, stream);
    const d = stream.data;
    const n = stream.count;
    // at most one term per record, except German compounds (reserved as they come)
    out.reserve(n);
    for (let r = 0, end = n * RECORD; r < end; r += RECORD) {
      const flags = d[r];
      const start = d[r + 1];
      const stop = d[r + 2];
      if ((flags & F_COMPOUND) !== 0) {
        out.push(internTerm(wholeTerm(text, start, stop, lang)), pos);
        continue;
      }
      if (stop - start <= MAX_WORD_LENGTH) {
        const code = rangeCode(text, start, stop, flags, d[r + 3], table, lang);
        if (code >= 0) out.push(code, pos);
        else if (code !== NO_TERMS) {
          const e = multi[-2 - code];
          out.reserve(e.length + (n - (r >> 2)));
          for (let i = 0; i < e.length; i++) out.push(e[i], pos);
        }
      }
      pos++;
    }
  } finally {
    releaseStream(stream);
  }
  return pos;
}

/** Index terms (as a TermStream) of a list of tokens, e.g. from analyze() or a custom analyzer. */
export function termStreamOf(tokens: readonly Token[], out = new TermStream()): TermStream {
  checkRegistry();
  out.count = 0;
  out.epoch = registryEpoch;
  out.strings = termStrings;
  out.reserve(tokens.length);
  for (const t of tokens) out.push(internTerm(t.term), t.position);
  return out;
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
  return e === null ? null : typeof e === 'number' ? termStrings[e] : termStrings[e[0]];
}
function addParts(e: Entry, into: string[], exclude: readonly string[]): void {
  if (e === null || typeof e === 'number') return;
  for (let i = 1; i < e.length; i++) {
    const p = termStrings[e[i]];
    if (!into.includes(p) && !exclude.includes(p)) into.push(p);
  }
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
  checkRegistry();
  const other: Language = lang === 'de' ? 'en' : 'de';
  const words: QueryWord[] = [];
  let whole: string[] | null = null;
  tokenize(text, {
    compound(start, end) {
      const hint = wholeTerm(text, start, end, lang);
      const alt = wholeTerm(text, start, end, other);
      whole = alt === hint ? [hint] : [hint, alt];
    },
    word(start, end, flags) {
      const surface = text.slice(start, end);
      const prefix: string[] | null = whole;
      whole = null;
      const terms: string[] = prefix === null ? [] : [...prefix];
      const parts: string[] = [];
      let otherStopword = false;
      if (end - start <= MAX_WORD_LENGTH) {
        const w = lowerWord(text, start, end, flags);
        const hint = wordEntry(w, lang);
        const main = termOf(hint);
        if (main !== null) {
          if (!terms.includes(main)) terms.push(main);
          const alt = wordEntry(w, other);
          const second = termOf(alt);
          if (second !== null && !terms.includes(second)) terms.push(second);
          otherStopword = alt === null;
          addParts(hint, parts, terms);
          addParts(alt, parts, terms);
        } else if (terms.length === 0) {
          words.push({ text: surface, terms, parts, stopword: true, otherStopword: wordEntry(w, other) === null });
          return;
        }
      }
      words.push({ text: surface, terms, parts, stopword: false, otherStopword });
    },
  });
  return words;
}
