/**
 * selectTerms: the bounded df counting (stop once a term cannot make the top
 * terms) selects exactly what ranking every term by tf × idf with its exact df
 * selects; moreLikeThis `fields` restricts the source fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Token } from '../../../engine/analysis/types.ts';
import { selectTerms } from '../../../engine/mlt/more-like-this.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';
import { int, rng } from '../helpers/random.ts';

const split = (text: string): Token[] =>
  text
    .split(' ')
    .filter(Boolean)
    .map((term, position) => ({ term, position, start: 0, end: 0 }) as Token);

/** Reference: every term with its exact df, ranked by tf × idf, ties by term. */
function reference(
  text: string,
  df: Map<string, number>,
  n: number,
  o: { maxQueryTerms: number; maxDocFreqRatio: number; minTermFreq: number },
) {
  const tf = new Map<string, number>();
  for (const t of split(text)) if (t.term.length >= 2) tf.set(t.term, (tf.get(t.term) ?? 0) + 1);
  const out: { term: string; score: number }[] = [];
  for (const [term, f] of tf) {
    const d = df.get(term) ?? 0;
    if (f < o.minTermFreq || d === 0 || d > n * o.maxDocFreqRatio) continue;
    out.push({ term, score: f * Math.log(1 + (n - d + 0.5) / (d + 0.5)) });
  }
  out.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1));
  return out.slice(0, o.maxQueryTerms);
}

test('bounded df counting selects exactly the reference terms', () => {
  const r = rng(11);
  for (let round = 0; round < 300; round++) {
    const n = int(r, 1, 5000);
    const vocab = Array.from({ length: int(r, 1, 60) }, (_, i) => `t${i}`);
    const df = new Map(vocab.map((t) => [t, r() < 0.1 ? 0 : int(r, 1, r() < 0.5 ? 5 : n)]));
    const text = Array.from({ length: int(r, 0, 120) }, () => vocab[int(r, 0, vocab.length - 1)]).join(' ');
    const o = {
      maxQueryTerms: int(r, 1, 8),
      maxDocFreqRatio: [0.001, 0.01, 0.5, 1][int(r, 0, 3)],
      minTermFreq: int(r, 1, 2),
    };
    let asked = 0;
    const stats = {
      numDocs: n,
      // Counting stops past atMost: any value above it is allowed.
      docFreq: (term: string, atMost: number) => {
        asked++;
        const d = df.get(term) ?? 0;
        return d > atMost ? Math.floor(atMost) + 1 + int(r, 0, 3) : d;
      },
    };
    assert.deepEqual(selectTerms([text], 'en', split, stats, o), reference(text, df, n, o), `round ${round}`);
    assert.ok(asked <= vocab.length);
  }
});

test('moreLikeThis takes its terms from the given fields only', async () => {
  const index = await indexOf([
    doc('a', 'volcano lava crater', 'orchestra violin symphony'),
    doc('b', 'volcano lava eruption', 'garden flowers'),
    doc('c', 'market prices', 'orchestra violin concert'),
    doc('d', 'weather report', 'rain and sunshine'),
  ]);
  const s = index.reader.searcher();
  assert.deepEqual(
    s.moreLikeThis('a', { limit: 5, fields: ['title'] }).map((h) => h.key),
    ['b'],
  );
  assert.deepEqual(
    s.moreLikeThis('a', { limit: 5, fields: ['body'] }).map((h) => h.key),
    ['c'],
  );
  assert.deepEqual(
    s
      .moreLikeThis('a', { limit: 5 })
      .map((h) => h.key)
      .sort(),
    ['b', 'c'],
  );
  await index.close();
});
