/**
 * The parts of attached files the model receives: a file that fits its share
 * of the context budget is given whole; a longer one is cut into passages,
 * the passages are ranked by BM25 against the question, and the best ones
 * that fit are given in document order, gaps marked with "[...]".
 */
import { bm25, passages, questionTerms } from './relevance.ts';
import type { Language } from '../../engine/index.ts';

export const PASSAGE_CHARS = 800;

/**
 * selectRelevant somewhere else (a search worker thread, search/pool.ts): ranking the passages of
 * a long file analyses all of it (about half a second for 10 million characters), which must not
 * hold the thread that serves HTTP.
 */
export type SelectPassagesFn = (text: string, question: string, budget: number, language: Language) => Promise<string>;
const GAP = '\n[...]\n';

export function selectRelevant(text: string, question: string, budget: number, language: Language): string {
  if (text.length <= budget) return text;
  // A passage costs its length plus a gap marker: a full-size one must fit the budget alone.
  const parts = passages(text, Math.max(1, Math.min(PASSAGE_CHARS, budget - GAP.length)));
  const scores = bm25(parts, questionTerms(question, language), language);
  const ranked = parts.map((p, i) => ({ i, score: scores[i] })).sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen: number[] = [];
  let used = 0;
  for (const { i } of ranked) {
    const cost = parts[i].length + GAP.length;
    if (used + cost > budget) continue;
    chosen.push(i);
    used += cost;
  }
  chosen.sort((a, b) => a - b);
  let out = chosen[0] === 0 ? '' : '[...]\n';
  chosen.forEach((i, n) => {
    if (n > 0) out += chosen[n - 1] === i - 1 ? '\n' : GAP;
    out += parts[i];
  });
  if (chosen.length > 0 && chosen[chosen.length - 1] !== parts.length - 1) out += '\n[...]';
  return out;
}
