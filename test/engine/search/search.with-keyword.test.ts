/**
 * Searcher.withKeyword: the docs carrying a keyword value, read from the
 * column's doc lists, equal a blank-query search with that keyword filter
 * (same docs, same index order), under a filter, with deletions and updates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf } from '../helpers/index-fixture.ts';
import { int, rng } from '../helpers/random.ts';
import type { Filter } from '../../../engine/query/types.ts';

test('withKeyword equals the blank-query search with the keyword filter', async () => {
  const r = rng(5);
  const make = (i: number) =>
    doc(`d${i}`, `title ${i}`, `body ${i}`, {
      keywords: { source: [`s${int(r, 0, 5)}`, ...(r() < 0.3 ? [`s${int(r, 0, 5)}`] : [])], acl: [`u${int(r, 0, 3)}`] },
    });
  const batches = [
    Array.from({ length: 60 }, (_, i) => make(i)),
    Array.from({ length: 40 }, (_, i) => make(60 + i)),
    [make(3), make(70)],
  ];
  const index = await indexOf(...batches);
  index.writer.delete('d10');
  index.writer.delete('d65');
  await index.writer.commit();
  const s = index.reader.searcher();
  for (let q = 0; q < 60; q++) {
    const values = Array.from({ length: int(r, 1, 2) }, () => `s${int(r, 0, 6)}`);
    const filter: Filter | undefined =
      r() < 0.7 ? { keyword: 'acl', anyOf: [`u${int(r, 0, 3)}`, `u${int(r, 0, 3)}`] } : undefined;
    const limit = int(r, 0, 30);
    const kw: Filter = { keyword: 'source', anyOf: values };
    const want = s.search({ query: '', filter: filter ? { and: [filter, kw] } : kw, limit }).hits.map((h) => h.key);
    const got = s.withKeyword('source', values, { filter, limit });
    assert.deepEqual(
      got.map((h) => h.key),
      want,
      `query ${q}`,
    );
    for (const h of got) assert.ok(typeof h.stored === 'object');
  }
  assert.deepEqual(s.withKeyword('source', ['nope'], { limit: 5 }), []);
  assert.throws(() => s.withKeyword('unknown', ['x'], { limit: 5 }), { code: 'invalid_filter' });
  await index.close();
});
