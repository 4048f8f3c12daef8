/**
 * "More like this": pick the document's most characteristic terms (tf × idf
 * over its analyzed text fields, as Lucene's MoreLikeThis does) and turn them
 * into an OR query whose terms are index terms already (no re-analysis).
 * The searcher runs it with the source doc excluded and the caller's filter.
 */
import type { Language, Token } from '../analysis/types.ts';
import type { ParsedQuery } from '../query/types.ts';

export interface MoreLikeThisOptions {
  /** Terms in the generated query. Default 25. */
  maxQueryTerms: number;
  /** Ignore terms occurring fewer times in the doc. Default 1. */
  minTermFreq: number;
  /** Ignore terms in more than this fraction of docs. Default 0.5. */
  maxDocFreqRatio: number;
  /** Ignore terms shorter than this. Default 2. */
  minWordLength: number;
}

export const DEFAULT_MLT: Readonly<MoreLikeThisOptions> = Object.freeze({
  maxQueryTerms: 25,
  minTermFreq: 1,
  maxDocFreqRatio: 0.5,
  minWordLength: 2,
});

export interface MltStats {
  /** Docs containing `term` in any text field (max over fields), and docs in the index. */
  docFreq(term: string): number;
  numDocs: number;
}

/** The doc's top terms by tf × idf, best first. */
export function selectTerms(
  texts: readonly string[],
  lang: Language,
  analyze: (text: string, lang: Language) => Token[],
  stats: MltStats,
  options: Partial<MoreLikeThisOptions> = {},
): { term: string; score: number }[] {
  const o = { ...DEFAULT_MLT, ...options };
  const tf = new Map<string, number>();
  for (const text of texts) {
    for (const t of analyze(text, lang)) {
      if (t.term.length < o.minWordLength) continue;
      tf.set(t.term, (tf.get(t.term) ?? 0) + 1);
    }
  }
  const scored: { term: string; score: number }[] = [];
  const n = Math.max(1, stats.numDocs);
  for (const [term, f] of tf) {
    if (f < o.minTermFreq) continue;
    const df = stats.docFreq(term);
    if (df === 0 || df > n * o.maxDocFreqRatio) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    scored.push({ term, score: f * idf });
  }
  scored.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1));
  return scored.slice(0, o.maxQueryTerms);
}

/** An OR query over the selected terms. */
export function termsQuery(terms: readonly { term: string }[], lang: Language): ParsedQuery {
  return {
    text: terms.map((t) => t.term).join(' '),
    language: lang,
    clauses: terms.map((t) => ({ kind: 'word' as const, occur: 'should' as const, word: { text: t.term, terms: [t.term], parts: [] } })),
  };
}
