/**
 * Typed errors of the analysis layer. Callers (the index writer, the query
 * parser) validate their own input; these guard the analysis entry points
 * against values of the wrong type reaching them at run time.
 */
import type { Language } from './types.ts';

export type AnalysisErrorCode = 'invalid_text' | 'invalid_language';

/** A value of the wrong type or an unsupported language given to the analyzers. */
export class AnalysisError extends Error {
  constructor(
    readonly code: AnalysisErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AnalysisError';
  }
}

/** Throws AnalysisError unless `text` is a string. */
export function checkText(text: unknown): asserts text is string {
  if (typeof text !== 'string') throw new AnalysisError('invalid_text', `text must be a string, got ${typeof text}`);
}

/** Throws AnalysisError unless `lang` is a supported language. */
export function checkLanguage(lang: unknown): asserts lang is Language {
  if (lang !== 'de' && lang !== 'en')
    throw new AnalysisError('invalid_language', `language must be 'de' or 'en', got ${String(lang)}`);
}
