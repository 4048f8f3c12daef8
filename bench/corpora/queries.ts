/**
 * Deterministic 2-3 word queries drawn from a corpus' own text. Half are runs
 * of consecutive words (so they carry very common words such as "of the"),
 * half are words picked independently from random positions (so frequent words
 * such as "webster" or "from" come up in proportion to their frequency).
 * Every query keeps at least one word that is not an English stopword, so no
 * query is empty after analysis in any engine.
 */
import { createRng } from '../lib/prng.ts';
import type { BenchDoc } from './types.ts';

const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with from which'.split(
    ' ',
  ),
);

const WORD = /[A-Za-z]{2,}/g;

export function sampleQueries(docs: readonly BenchDoc[], count: number, seed: number): string[] {
  const rng = createRng(seed);
  const out: string[] = [];
  const wordsOf = (d: BenchDoc): string[] => (d.body.match(WORD) ?? []).map((w) => w.toLowerCase());
  while (out.length < count) {
    const len = 2 + rng.int(2);
    let words: string[] = [];
    if (out.length % 2 === 0) {
      const w = wordsOf(rng.pick(docs));
      if (w.length < len) continue;
      const start = rng.int(w.length - len + 1);
      words = w.slice(start, start + len);
    } else {
      for (let i = 0; i < len; i++) {
        const w = wordsOf(rng.pick(docs));
        if (w.length) words.push(rng.pick(w));
      }
      if (words.length < len) continue;
    }
    if (!words.some((w) => !STOP.has(w) && w.length >= 3)) continue;
    out.push(words.join(' '));
  }
  return out;
}
