/**
 * Public API of the analysis layer (English and German): tokenizing, stemming,
 * folding, decompounding and language detection. See types.ts for the contract.
 */
export type { Language, Token, QueryWord } from './types.ts';
export { LANGUAGES } from './types.ts';
export {
  analyze,
  analyzeEach,
  analyzeQuery,
  analyzeTerms,
  termStreamOf,
  TermStream,
  MAX_WORD_LENGTH,
} from './analyzer.ts';
export type { TokenCallback } from './analyzer.ts';
export { detectLanguage } from './detect.ts';
/**
 * Version of the analysis output (the terms a text becomes). Raise it whenever a change makes the same
 * text produce different index terms; segments record the version they were written with, so an index
 * can tell how many of its documents predate the current analysis (they match less precisely until
 * re-indexed). 1: the first release; 2: hyphen-closed compounds, letter/digit parts, Greek letter names,
 * US spelling for English; 3: NFKC for words with compatibility characters or combining marks
 * (ligatures, full-width letters, decomposed umlauts), format characters (soft hyphen …) inside words,
 * diacritics other than umlauts folded before German stemming, Latin Extended Additional and ł ø đ ı æ œ.
 */
export const ANALYSIS_VERSION = 3;
export { stemEnglish } from './english-stemmer.ts';
export { stemGerman } from './german-stemmer.ts';
export { foldAccents, foldCompatibility, foldGerman, foldLatin } from './fold.ts';
export { splitGermanCompound } from './decompound.ts';
export { ENGLISH_STOPWORDS, GERMAN_STOPWORDS } from './stopwords.ts';
export { tokenize } from './tokenizer.ts';
export type { TokenSink } from './tokenizer.ts';
export { AnalysisError } from './errors.ts';
export type { AnalysisErrorCode } from './errors.ts';
