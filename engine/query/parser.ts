/**
 * Query parser: free text into a flat boolean query.
 *
 *   word          optional (OR-ed, ranked by BM25)
 *   "a phrase"    optional phrase, matched through positions (also “…”, „…“, «…», ＂…＂)
 *   +word  +"…"   required
 *   -word  -"…"   excluded
 *
 * Every word goes through the analysis layer's `analyzeQuery`, so the query
 * terms are exactly the index terms; stopwords are dropped (inside phrases they
 * leave a position gap, and so does a stopword of the other analysis language,
 * because a document indexed in that language holds no term there). A sign
 * before a digit is part of a number ("+1 nucleosome", "-2 °C", "E2f-1, -2, -3"),
 * not an operator. A `+`/`-` token that analyses into several words (e.g.
 * "+e-mail") becomes a required/excluded phrase. An unterminated quote runs to
 * the end of the text. A query with only excluded clauses matches nothing (as in
 * Lucene). A query whose every word is a stopword of the hint language is read in
 * the other language (its `language` then says so).
 */
import type { Language, QueryWord } from '../analysis/types.ts';
import type { Occur, ParsedQuery, PhraseSlot, QueryClause } from './types.ts';

export type AnalyzeQueryFn = (text: string, lang: Language) => QueryWord[];

export interface ParseLimits {
  /** Longest accepted query in UTF-16 code units. Default 8192. */
  maxLength: number;
  /** Most clauses (words + phrases) after analysis. Default 1024 (Lucene's maxClauseCount). */
  maxClauses: number;
  /**
   * Most index terms the clauses expand into: every alternative and compound part of a word,
   * every term of a phrase's slots (see countTerms). Default: no limit.
   */
  maxTerms: number;
}

export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = Object.freeze({
  maxLength: 8192,
  maxClauses: 1024,
  maxTerms: Infinity,
});

/** Index terms of `clauses`: the alternatives and compound parts of each word, the terms of each phrase slot. */
export function countTerms(clauses: readonly QueryClause[]): number {
  let n = 0;
  for (const c of clauses) {
    if (c.kind === 'word') n += c.word.terms.length + c.word.parts.length;
    else for (const slot of c.slots) n += slot.terms.length;
  }
  return n;
}

export type QueryErrorCode =
  | 'query_too_long'
  | 'too_many_clauses'
  | 'too_many_terms'
  | 'over_budget'
  | 'invalid_query'
  | 'invalid_filter'
  | 'invalid_request';

/** Typed error of the query layer (bad query text, filter or request parameters). */
export class QueryError extends Error {
  constructor(
    readonly code: QueryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

interface RawToken {
  occur: Occur;
  text: string;
  quoted: boolean;
}

/** Split raw text into (occur, text, quoted) tokens. */
export function tokenizeQuery(text: string): RawToken[] {
  const out: RawToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    let occur: Occur = 'should';
    const c = text[i];
    if (
      (c === '+' || c === '-') &&
      i + 1 < n &&
      !isSpace(text.charCodeAt(i + 1)) &&
      !isAsciiDigit(text.charCodeAt(i + 1))
    ) {
      occur = c === '+' ? 'must' : 'mustNot';
      i++;
    }
    if (isQuote(text.charCodeAt(i))) {
      let close = i + 1;
      while (close < n && !isQuote(text.charCodeAt(close))) close++;
      out.push({ occur, text: text.slice(i + 1, close), quoted: true });
      i = close + 1;
      continue;
    }
    const start = i;
    while (i < n && !isSpace(text.charCodeAt(i)) && !isQuote(text.charCodeAt(i))) i++;
    const word = text.slice(start, i);
    if (word && word !== '+' && word !== '-') out.push({ occur, text: word, quoted: false });
  }
  return out;
}

/**
 * Quotation marks that open or close a phrase: the ASCII quote, the typographic ones that
 * smart-quote keyboards and German text use (“ ” „ ‟ « ») and the full-width quote of East
 * Asian input methods (＂), any of them closing any other.
 */
function isQuote(code: number): boolean {
  return code === 34 || (code >= 0x201c && code <= 0x201f) || code === 0xab || code === 0xbb || code === 0xff02;
}

function isSpace(code: number): boolean {
  return (
    code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200b)
  );
}

/**
 * The slots of a phrase and the word of each. A word without terms (a stopword of the hint
 * language) and, when `gapOtherStopwords`, a stopword of the other language leave a gap: a text
 * indexed in that language holds no term at its position.
 */
function phraseSlots(words: QueryWord[], gapOtherStopwords: boolean): { slots: PhraseSlot[]; words: QueryWord[] } {
  const slots: PhraseSlot[] = [];
  const of: QueryWord[] = [];
  let base = -1;
  for (let i = 0; i < words.length; i++) {
    if (words[i].terms.length === 0 || (gapOtherStopwords && words[i].otherStopword === true)) continue;
    if (base < 0) base = i;
    slots.push({ terms: [...words[i].terms], offset: i - base });
    of.push(words[i]);
  }
  return { slots, words: of };
}

/** A phrase clause, or a word clause when the phrase has one slot. */
function phraseClause(phrase: { slots: PhraseSlot[]; words: QueryWord[] }, occur: Occur, text: string): QueryClause {
  const { slots } = phrase;
  if (slots.length === 1)
    return { kind: 'word', occur, word: { text: phrase.words[0].text, terms: slots[0].terms, parts: [] } };
  return { kind: 'phrase', occur, text, slots };
}

/**
 * Parse `text` with the given query analyzer; throws QueryError on oversized input. A query whose
 * every word is a stopword of `language` ("war", "will", "die" with the default German hint) is
 * read in the other language rather than matching nothing, unless it has no content there either
 * or only exclusions.
 */
export function parseQuery(
  text: string,
  language: Language,
  analyzeQuery: AnalyzeQueryFn,
  limits: Partial<ParseLimits> = {},
): ParsedQuery {
  const parsed = parseIn(text, language, analyzeQuery, limits);
  if (parsed.clauses.length > 0) return parsed;
  const other = parseIn(text, language === 'de' ? 'en' : 'de', analyzeQuery, limits);
  return other.clauses.some((c) => c.occur !== 'mustNot') ? other : parsed;
}

function parseIn(
  text: string,
  language: Language,
  analyzeQuery: AnalyzeQueryFn,
  limits: Partial<ParseLimits>,
): ParsedQuery {
  if (typeof text !== 'string') throw new QueryError('invalid_query', 'query must be a string');
  const maxLength = limits.maxLength ?? DEFAULT_PARSE_LIMITS.maxLength;
  const maxClauses = limits.maxClauses ?? DEFAULT_PARSE_LIMITS.maxClauses;
  if (text.length > maxLength) {
    throw new QueryError('query_too_long', `query is ${text.length} characters long, the limit is ${maxLength}`);
  }
  const clauses: QueryClause[] = [];
  for (const tok of tokenizeQuery(text)) {
    const words = analyzeQuery(tok.text, language);
    const content = words.filter((w) => w.terms.length > 0);
    if (content.length === 0) continue;
    if (tok.quoted || (tok.occur !== 'should' && content.length > 1)) {
      // The phrase as either language indexes it: stopwords of both are gaps (a phrase of such
      // words keeps the words of its hint language). An excluded phrase is not narrowed to one
      // word; a phrase the hint language reads with more words also ranks its exact matches.
      const hint = phraseSlots(words, false);
      const both = phraseSlots(words, true);
      let main = both.slots.length > 0 ? both : hint;
      if (tok.occur === 'mustNot' && main.slots.length < 2 && hint.slots.length >= 2) main = hint;
      clauses.push(phraseClause(main, tok.occur, tok.text));
      if (tok.occur !== 'mustNot' && hint.slots.length >= 2 && hint.slots.length > main.slots.length) {
        clauses.push(phraseClause(hint, 'should', tok.text));
      }
      continue;
    }
    for (const w of content) {
      clauses.push({
        kind: 'word',
        occur: tok.occur,
        word: { text: w.text, terms: [...w.terms], parts: [...w.parts] },
      });
    }
  }
  if (clauses.length > maxClauses) {
    throw new QueryError('too_many_clauses', `query has ${clauses.length} clauses, the limit is ${maxClauses}`);
  }
  const maxTerms = limits.maxTerms ?? DEFAULT_PARSE_LIMITS.maxTerms;
  const terms = maxTerms === Infinity ? 0 : countTerms(clauses);
  if (terms > maxTerms) {
    throw new QueryError('too_many_terms', `query expands into ${terms} index terms, the limit is ${maxTerms}`);
  }
  return { text, language, clauses };
}

/** A sign before a digit ("+1 nucleosome", "-2 °C") is part of a number, not an operator. */
function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
