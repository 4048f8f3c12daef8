/**
 * A tiny deterministic analyzer for query-layer tests (independent of the
 * real stemmers): lowercase words of letters/digits, a few stopwords dropped
 * while still advancing the position, and "xy+z" compounds: a word containing
 * "+" is indexed whole and as its parts at the same position.
 */
import type { Language, QueryWord, Token } from '../../../engine/analysis/types.ts';

const STOP = new Set(['the', 'a', 'of', 'and', 'to', 'der', 'die', 'das', 'und']);
const WORD = /[\p{L}\p{N}+]+/gu;

export function simpleAnalyze(text: string, _lang: Language): Token[] {
  const out: Token[] = [];
  let pos = 0;
  for (const m of text.matchAll(WORD)) {
    const start = m.index ?? 0;
    const word = m[0].toLowerCase();
    const parts = word.split('+').filter(Boolean);
    if (parts.length === 0) continue;
    const p = pos++;
    if (STOP.has(word)) continue;
    const end = start + m[0].length;
    out.push({ term: parts.join(''), position: p, start, end });
    if (parts.length > 1) for (const part of parts) out.push({ term: part, position: p, start, end });
  }
  return out;
}

export function simpleAnalyzeQuery(text: string, _lang: Language): QueryWord[] {
  const out: QueryWord[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0].toLowerCase();
    const parts = word.split('+').filter(Boolean);
    if (parts.length === 0) continue;
    if (STOP.has(word)) out.push({ text: m[0], terms: [], parts: [], stopword: true });
    else out.push({ text: m[0], terms: [parts.join('')], parts: parts.length > 1 ? parts : [], stopword: false });
  }
  return out;
}

export const simpleAnalyzer = { analyze: simpleAnalyze, analyzeQuery: simpleAnalyzeQuery };
