/**
 * Mode `context`: turns grounded sources of the LLM-context provider into the
 * answer the spec describes, a synthesized summary first, then one element per
 * grounded source with its snippets. The summary is extractive (no model is
 * involved): for each source, in rank order, the snippet sentence that shares
 * the most terms with the queries, with a numbered citation, followed by the
 * numbered source list.
 */
import type { ContextSource } from './providers/types.ts';
import type { WebSearchResult } from './types.ts';
import { truncateText } from '../../extractors/index.ts';

const SUMMARY_SOURCES = 8;
const SENTENCE_CHARS = 300;

const terms = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** The snippet sentence of `source` sharing the most terms with the query. */
function bestSentence(source: ContextSource, queryTerms: Set<string>): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const snippet of source.snippets) {
    for (const raw of snippet.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'])/u)) {
      const sentence = raw.trim();
      if (sentence.length < 20) continue;
      let score = 0;
      for (const t of terms(sentence)) if (queryTerms.has(t)) score++;
      if (score > bestScore) [best, bestScore] = [sentence, score];
    }
  }
  return best ?? source.snippets[0]?.trim();
}

/** The summary element: an extractive digest of the top sources with citations. */
export function summaryResult(queries: string[], sources: ContextSource[]): WebSearchResult {
  const queryTerms = terms(queries.join(' '));
  const cited = sources.slice(0, SUMMARY_SOURCES);
  const points: string[] = [];
  cited.forEach((s, i) => {
    const sentence = bestSentence(s, queryTerms);
    if (sentence) points.push(`- ${truncateText(sentence, SENTENCE_CHARS).text} [${i + 1}]`);
  });
  const list = cited.map((s, i) => `[${i + 1}] ${s.title || s.hostname} (${s.url})`);
  const content = [
    `Summary of ${cited.length} grounded source${cited.length === 1 ? '' : 's'}:`,
    ...points,
    '',
    'Sources:',
    ...list,
  ].join('\n');
  const url = new URL('https://search.brave.com/search');
  url.searchParams.set('q', queries.join(' '));
  return {
    url: url.href,
    metadata: {
      title: `Summary: ${queries.join('; ')}`,
      description: `Synthesized from ${sources.length} grounded sources`,
    },
    content,
  };
}

/** One grounded source as a result: snippets joined by blank lines. */
export function sourceResult(source: ContextSource): WebSearchResult {
  return {
    url: source.url,
    metadata: { title: source.title || source.hostname, description: truncateText(source.snippets[0] ?? '', 300).text },
    content: source.snippets.join('\n\n'),
  };
}
