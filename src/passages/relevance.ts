/**
 * Relevance of text passages to a question, with the search engine's own
 * analyzers (stemming, German compounds): splitting text into passages,
 * BM25 scores of passages for a question, and the analysis language of a
 * question (the `metadata.language` hint for very short inputs, where
 * detection is unreliable; the detected language otherwise).
 */
import { analyze, analyzeQuery, detectLanguage, type Language } from '../../engine/index.ts';

/** Inputs with fewer words than this are analysed in the hint language. */
export const SHORT_INPUT_WORDS = 5;

export function analysisLanguage(text: string, hint: Language): Language {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return words < SHORT_INPUT_WORDS ? hint : detectLanguage(text);
}

/** Index terms of the question (every form the analyzer offers, compound parts included). */
export function questionTerms(question: string, lang: Language): Set<string> {
  const out = new Set<string>();
  for (const w of analyzeQuery(question.slice(0, 2000), lang)) {
    for (const t of w.terms) out.add(t);
    for (const p of w.parts) out.add(p);
  }
  return out;
}

/** BM25 score of each passage for the question terms (k1 1.2, b 0.75). */
export function bm25(passages: readonly string[], terms: ReadonlySet<string>, lang: Language): number[] {
  if (terms.size === 0 || passages.length === 0) return passages.map(() => 0);
  const tf = passages.map((p) => {
    const counts = new Map<string, number>();
    let len = 0;
    for (const t of analyze(p, lang)) {
      len++;
      if (terms.has(t.term)) counts.set(t.term, (counts.get(t.term) ?? 0) + 1);
    }
    return { counts, len };
  });
  const avg = tf.reduce((a, x) => a + x.len, 0) / passages.length || 1;
  const df = new Map<string, number>();
  for (const { counts } of tf) for (const t of counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = passages.length;
  return tf.map(({ counts, len }) => {
    let score = 0;
    for (const [t, f] of counts) {
      const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len) / avg));
    }
    return score;
  });
}

/** Split text into passages of about `size` characters at paragraph, line or sentence ends. */
export function passages(text: string, size: number): string[] {
  const out: string[] = [];
  let current = '';
  const pieces = text.split(/(?<=\n\s*\n)|(?<=[.!?])\s+(?=[A-ZÄÖÜ0-9"„(])|\n/);
  for (const raw of pieces) {
    const piece = raw.trim();
    if (piece === '') continue;
    if (current !== '' && current.length + piece.length + 1 > size) {
      out.push(current);
      current = '';
    }
    if (piece.length > size) {
      for (let i = 0; i < piece.length; i += size) out.push(piece.slice(i, i + size));
      continue;
    }
    current = current === '' ? piece : `${current} ${piece}`;
  }
  if (current !== '') out.push(current);
  return out;
}

/** Sentences of a text (for quoting). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 3);
}
