/**
 * The direct plan of an OR of distinct index terms (buildTermsPlan, used for more-like-this
 * queries) is the plan buildPlan makes of termsQuery(terms), for both field scorings, with
 * terms absent from some or all fields; executeQuery given `terms` returns the hits of the
 * parsed query, bit for bit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { executeQuery } from '../../../engine/search/execute.ts';
import type { SnapshotContext } from '../../../engine/search/execute.ts';
import { FilterCache } from '../../../engine/query/filter.ts';
import { buildPlan, buildTermsPlan, GlobalStats } from '../../../engine/query/plan.ts';
import type { FieldScoring } from '../../../engine/query/plan.ts';
import { bm25Params } from '../../../engine/similarity/bm25.ts';
import { termsQuery } from '../../../engine/mlt/more-like-this.ts';
import { int, rng, zipfWords } from '../helpers/random.ts';

const schema = {
  textFields: { title: { boost: 2 }, body: {}, meta: { boost: 0.5 } } as Record<string, { boost?: number }>,
  keywordFields: ['acl'],
  numericFields: [],
};
const fields = [
  { name: 'title', boost: 2 },
  { name: 'body', boost: 1 },
  { name: 'meta', boost: 0.5 },
];

async function corpus(seed: number) {
  const r = rng(seed);
  const word = zipfWords(r, 300);
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  let id = 0;
  for (let batch = 0; batch < 2; batch++) {
    for (let i = 0; i < 800; i++) {
      const title = Array.from({ length: int(r, 1, 5) }, word).join(' ');
      const body = Array.from({ length: int(r, 3, 30) }, word).join(' ');
      const acl = [`g${int(r, 0, 5)}`];
      // meta holds its own words: terms absent from title and body
      index.writer.add({
        key: `d${id++}`,
        language: 'en',
        text: { title, body, ...(r() < 0.3 ? { meta: `m${int(r, 0, 50)}` } : {}) },
        keywords: { acl },
      });
    }
    await index.writer.commit();
  }
  return { index, r, word };
}

function randomTerms(r: () => number, word: () => string): { term: string; score: number }[] {
  const picked = new Set<string>();
  const n = int(r, 0, 6);
  for (let i = 0; i < n; i++) picked.add(r() < 0.2 ? `m${int(r, 0, 60)}` : r() < 0.1 ? `absent${i}` : word());
  return [...picked].map((term, i) => ({ term, score: 10 - i }));
}

test('buildTermsPlan equals buildPlan of termsQuery, combined and per-field scoring', async () => {
  const { index, r, word } = await corpus(11);
  const segments = [...index.reader.segments()];
  assert.ok(segments.length >= 2);
  let nonEmpty = 0;
  for (const fieldScoring of ['combined', 'sum'] as FieldScoring[]) {
    for (let q = 0; q < 60; q++) {
      const terms = randomTerms(r, word);
      const ctx = { segments, fields, bm25: bm25Params(), fieldScoring };
      const want = buildPlan(termsQuery(terms, 'en'), ctx, new GlobalStats(segments));
      const got = buildTermsPlan(terms, ctx, new GlobalStats(segments));
      assert.deepEqual(got, want, `${fieldScoring} ${terms.map((t) => t.term).join(' ')}`);
      if (got.scoring.length > 0) nonEmpty++;
    }
  }
  assert.ok(nonEmpty > 60, `${nonEmpty} plans with scoring units`);
  await index.close();
});

test('executeQuery with terms returns the hits of the parsed OR query', async () => {
  const { index, r, word } = await corpus(12);
  const segments = [...index.reader.segments()];
  const bases = segments.map((_, i) => segments.slice(0, i).reduce((a, s) => a + s.maxDoc, 0));
  const cache = new FilterCache();
  let compared = 0;
  for (let q = 0; q < 60; q++) {
    const terms = randomTerms(r, word);
    const filter = q % 2 === 0 ? undefined : { keyword: 'acl', anyOf: [`g${int(r, 0, 5)}`] };
    const opts = {
      filter,
      k: int(r, 1, 15),
      excludeGlobal: q % 3 === 0 ? -1 : int(r, 0, 1500),
      pruning: true,
      totalHitsThreshold: 0,
      exhaustiveMaxCost: q % 4 === 0 ? 0 : 1 << 14,
    };
    const ctx = (): SnapshotContext => ({
      segments,
      bases,
      fields,
      bm25: bm25Params(),
      stats: new GlobalStats(segments),
      filterCache: cache,
      fieldScoring: 'combined',
    });
    const want = executeQuery(ctx(), { ...opts, query: termsQuery(terms, 'en') });
    const got = executeQuery(ctx(), { ...opts, terms });
    assert.deepEqual(got.top.sorted(), want.top.sorted());
    assert.deepEqual(got.st, want.st);
    if (want.top.size > 0) compared++;
  }
  assert.ok(compared > 30, `${compared} queries with hits`);
  await index.close();
});
