/**
 * Contract of the analysis layer: text in, index terms out.
 *
 * Index side: `analyze(text, lang)` returns every indexed term with its
 * position and its UTF-16 offsets in the original text. Several tokens may
 * share one position (a technical compound kept whole next to its parts, a
 * German compound next to its split parts). Stopwords are dropped but still
 * advance the position counter, so phrase queries stay exact.
 *
 * Query side: `analyzeQuery(text, lang)` returns one entry per surface word;
 * `terms` are the index terms that match that word (hint language first, the
 * other supported language's form after it when it differs), `parts` are the
 * compound parts a query may add as weaker optional clauses; `otherStopword`
 * marks a word that the other language drops as a stopword. Consecutive
 * QueryWords stand at consecutive index positions: a technical compound
 * ("foo-bar.baz") gives one QueryWord per part, and the first of them also
 * carries the whole compound's term, which the index holds at that position.
 */
export type Language = 'de' | 'en';

export const LANGUAGES: readonly Language[] = ['de', 'en'];

export interface Token {
  /** The index term (folded, stemmed). */
  term: string;
  /** Word position; tokens at the same position are alternatives. */
  position: number;
  /** UTF-16 offset of the first code unit of the source word. */
  start: number;
  /** UTF-16 offset one past the last code unit of the source word. */
  end: number;
}

export interface QueryWord {
  /** The surface form as typed. */
  text: string;
  /** Index terms that match this word, best first. Empty for stopwords. */
  terms: string[];
  /** Compound parts (German decompounding), each already an index term. */
  parts: string[];
  /** True when the word is a stopword in the analysis language. */
  stopword: boolean;
  /**
   * True when the word is a stopword in the other supported language: a text indexed in that
   * language holds no term at the word's position, so a phrase leaves a gap for it (as it does
   * for a stopword of the hint language). Absent means false.
   */
  otherStopword?: boolean;
}
