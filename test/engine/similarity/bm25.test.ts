/** BM25 values against hand-computed numbers (Lucene's formula with the (k1 + 1) factor). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bm25,
  bm25Idf,
  bm25Params,
  bm25Score,
  bm25TermWeight,
  bm25UpperBound,
  DEFAULT_BM25,
} from '../../../engine/similarity/bm25.ts';
import { Searcher } from '../../../engine/search/searcher.ts';
import { memorySegment } from '../helpers/memory-segment.ts';
import { simpleAnalyzer } from '../helpers/simple-analyzer.ts';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

test('defaults are k1 = 1.2, b = 0.75', () => {
  assert.deepEqual({ ...DEFAULT_BM25 }, { k1: 1.2, b: 0.75 });
  assert.deepEqual(bm25Params({ k1: 2 }), { k1: 2, b: 0.75 });
});

test('idf is ln(1 + (N - df + 0.5) / (df + 0.5))', () => {
  close(bm25Idf(2, 10), 1.4816045409242156);
});

test('score of freq 3, length 8, avgdl 10, df 2 of 10', () => {
  const input = { freq: 3, fieldLength: 8, docFreq: 2, docCount: 10, avgFieldLength: 10 };
  close(bm25(DEFAULT_BM25, input), 2.432485067189011);
  close(bm25(DEFAULT_BM25, { ...input, boost: 2 }), 4.864970134378022);
  // b = 0: no length normalisation; k1 = 2: idf * 3 * f / (f + 2)
  close(
    bm25({ k1: 2, b: 0 }, { freq: 1, fieldLength: 50, docFreq: 1, docCount: 100, avgFieldLength: 3 }),
    4.209655408733095,
  );
});

test('upper bound from impacts dominates every (freq, norm) it covers', () => {
  const w = bm25TermWeight(DEFAULT_BM25, { docFreq: 5, docCount: 100, avgFieldLength: 12 });
  const ub = bm25UpperBound(w, [
    { freq: 4, norm: 10 },
    { freq: 1, norm: 2 },
  ]);
  for (const [f, n] of [
    [4, 10],
    [3, 10],
    [4, 30],
    [1, 2],
    [1, 9],
  ])
    assert.ok(bm25Score(w, f, n) <= ub);
  assert.ok(ub < w.weight);
});

test('rejects out-of-range parameters', () => {
  assert.throws(() => bm25Params({ b: 1.5 }), RangeError);
  assert.throws(() => bm25Params({ k1: -1 }), RangeError);
});

test('searcher score equals the hand-computed BM25 (N=4, df=1, dl=3, avgdl=2.5)', () => {
  const seg = memorySegment(
    's0',
    [
      { key: 'a', text: { body: 'kat hund' } },
      { key: 'b', text: { body: 'kat kat maus' } },
      { key: 'c', text: { body: 'hund' } },
      { key: 'd', text: { body: 'vogel vogel vogel vogel' } },
    ],
    { analyze: simpleAnalyzer.analyze },
  );
  const s = new Searcher([seg], {
    schema: { textFields: { body: {} }, keywordFields: [], numericFields: [] },
    generation: 1,
    analyzer: simpleAnalyzer,
  });
  const res = s.search({ query: 'maus', limit: 10 });
  assert.deepEqual(
    res.hits.map((h) => h.key),
    ['b'],
  );
  close(res.hits[0].score, 1.11291603761221);
});

test('BM25F (combined fields): title boost 2 counts as two occurrences and two length units', () => {
  // title docCount 2, sumTTF 2; body docCount 3, sumTTF 6 -> docCount 3, avgdl (2*2 + 6) / 3, df = max(1, 1)
  const seg = memorySegment(
    's0',
    [
      { key: 'a', text: { title: 'kat', body: 'hund maus' } },
      { key: 'b', text: { title: 'vogel', body: 'kat kat hund' } },
      { key: 'c', text: { title: '', body: 'maus' } },
    ],
    { analyze: simpleAnalyzer.analyze },
  );
  const schema = { textFields: { title: { boost: 2 }, body: {} }, keywordFields: [], numericFields: [] };
  const s = new Searcher([seg], { schema, generation: 1, analyzer: simpleAnalyzer });
  const res = s.search({ query: 'kat', limit: 10 });
  assert.deepEqual(
    res.hits.map((h) => h.key),
    ['a', 'b'],
  );
  close(res.hits[0].score, 1.276819145932425); // freq 2*1, dl 2*1 + 2
  close(res.hits[1].score, 1.1823695104798893); // freq 1*2, dl 2*1 + 3
  // per-field sums: the title match scores as its own BM25 times 2
  const sum = new Searcher([seg], { schema, generation: 1, analyzer: simpleAnalyzer, fieldScoring: 'sum' });
  const t = bm25(DEFAULT_BM25, { freq: 1, fieldLength: 1, docFreq: 1, docCount: 2, avgFieldLength: 1, boost: 2 });
  close(sum.search({ query: 'kat', limit: 1 }).hits[0].score, t);
});
