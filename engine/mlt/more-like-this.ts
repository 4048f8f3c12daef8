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
  /**
   * Docs containing `term` in any text field (max over fields), and docs in the index.
   * Exact when at most `atMost`; above it, any value over `atMost` (the term is rejected).
   */
  docFreq(term: string, atMost: number): number;
  numDocs: number;
}

/** a ranks before b: higher score, then the lower term (module level: no closure per selectTerms call). */
function better(a: { term: string; score: number }, b: { term: string; score: number }): boolean {
  return a.score > b.score || (a.score === b.score && a.term < b.term);
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
  const n = Math.max(1, stats.numDocs);
  const maxDf = n * o.maxDocFreqRatio;
  const k = Math.max(0, Math.floor(o.maxQueryTerms));
  if (k === 0) return [];
  // Likely strong terms first (frequent in the doc, long), so that the k-th best score
  // rises early and bounds the df worth counting for the rest (exact: a term whose df
  // exceeds the bound scores below the k-th best).
  // parallel arrays and an index order (no [term, tf] pair per candidate)
  const terms: string[] = [];
  const tfs: number[] = [];
  for (const [term, f] of tf) {
    if (f < o.minTermFreq) continue;
    terms.push(term);
    tfs.push(f);
  }
  const order = new Array<number>(terms.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => tfs[b] - tfs[a] || terms[b].length - terms[a].length || (terms[a] < terms[b] ? -1 : 1));
  const top: { term: string; score: number }[] = [];
  // The best idf a term of the doc can have (df >= 1: the doc itself has it), as computed below.
  const maxIdf = Math.log(1 + (n - 1 + 0.5) / (1 + 0.5));
  // the df cap of the last (k-th best score, tf) pair: most candidates share both
  let capKth = NaN;
  let capTf = 0;
  let capBound = 1;
  for (let c = 0; c < order.length; c++) {
    const term = terms[order[c]];
    const f = tfs[order[c]];
    let cap = maxDf;
    if (top.length === k) {
      const kth = top[k - 1].score;
      // no later term (tf <= f) can beat the k-th best: f × maxIdf bounds its score
      if (f * maxIdf < kth) break;
      if (kth !== capKth || f !== capTf) {
        // tf × idf(df) >= kth  <=>  df <= (n + 0.5 - 0.5 E) / (1 + E) with E = e^(kth / tf) - 1 (one df of margin)
        const e = Math.exp(kth / f) - 1;
        const bound = Math.floor((n + 0.5 - 0.5 * e) / (1 + e)) + 1;
        capBound = Number.isNaN(bound) ? 1 : Math.max(1, Math.min(maxDf, bound));
        capKth = kth;
        capTf = f;
      }
      cap = capBound;
    }
    const df = stats.docFreq(term, cap);
    if (df === 0 || df > cap) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const entry = { term, score: f * idf };
    if (top.length === k && !better(entry, top[k - 1])) continue;
    let i = top.length;
    while (i > 0 && better(entry, top[i - 1])) i--;
    top.splice(i, 0, entry);
    if (top.length > k) top.pop();
  }
  return top;
}

/** An OR query over the selected terms. */
export function termsQuery(terms: readonly { term: string }[], lang: Language): ParsedQuery {
  return {
    text: terms.map((t) => t.term).join(' '),
    language: lang,
    clauses: terms.map((t) => ({
      kind: 'word' as const,
      occur: 'should' as const,
      word: { text: t.term, terms: [t.term], parts: [] },
    })),
  };
}
