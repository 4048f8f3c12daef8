/** Filters through the public API: keyword sets (access tokens), numeric ranges, and/or/not, validation, caching. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf, schema } from '../helpers/index-fixture.ts';
import { Searcher } from '../../../engine/search/searcher.ts';
import { FilterCache } from '../../../engine/query/filter.ts';
import type { Filter } from '../../../engine/query/types.ts';

const docs = Array.from({ length: 40 }, (_, i) =>
  doc(`d${i}`, `Report ${i}`, `quarterly report number ${i} about budgets`, {
    keywords: { acl: [`user${i % 4}`, ...(i % 10 === 0 ? ['group:all'] : [])], source: [i < 20 ? 'wiki' : 'drive'] },
    numbers: i % 7 === 0 ? {} : { modified: i * 100 },
  }),
);

function expected(pred: (i: number) => boolean): string[] {
  return docs
    .map((_, i) => i)
    .filter(pred)
    .map((i) => `d${i}`)
    .sort();
}

test('keyword sets, numeric ranges and boolean combinations select the right docs', async () => {
  const index = await indexOf(docs.slice(0, 25), docs.slice(25));
  const s = index.reader.searcher();
  const keys = (filter: Filter) =>
    s
      .search({ query: 'report', language: 'en', filter, limit: 100 })
      .hits.map((h) => h.key)
      .sort();
  assert.deepEqual(
    keys({ keyword: 'acl', anyOf: ['user1', 'group:all'] }),
    expected((i) => i % 4 === 1 || i % 10 === 0),
  );
  assert.deepEqual(
    keys({ numeric: 'modified', gte: 1000, lte: 2000 }),
    expected((i) => i % 7 !== 0 && i >= 10 && i <= 20),
  );
  assert.deepEqual(
    keys({ numeric: 'modified', lte: 500 }),
    expected((i) => i % 7 !== 0 && i <= 5),
  );
  assert.deepEqual(
    keys({ and: [{ keyword: 'source', anyOf: ['drive'] }, { not: { keyword: 'acl', anyOf: ['user0'] } }] }),
    expected((i) => i >= 20 && i % 4 !== 0),
  );
  assert.deepEqual(
    keys({
      or: [
        { keyword: 'acl', anyOf: ['user3'] },
        { numeric: 'modified', gte: 3800 },
      ],
    }),
    expected((i) => i % 4 === 3 || (i % 7 !== 0 && i >= 38)),
  );
  assert.deepEqual(keys({ keyword: 'acl', anyOf: [] }), []);
  assert.deepEqual(s.keywordValues('source'), ['drive', 'wiki']);
  assert.deepEqual(s.keywordValues('nope'), []);
  assert.deepEqual(keys({ keyword: 'acl', anyOf: ['nobody'] }), []);
  await index.close();
});

test('a filter applies with and without the bitset cache, on selective and broad queries', async () => {
  const index = await indexOf(docs);
  const segs = index.reader.segments();
  const filter: Filter = { keyword: 'acl', anyOf: ['user2'] };
  const cache = new FilterCache();
  const cached = new Searcher([...segs], { schema, generation: 1, filterCache: cache });
  const want = expected((i) => i % 4 === 2);
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(
      cached
        .search({ query: 'budgets', language: 'en', filter, limit: 100 })
        .hits.map((h) => h.key)
        .sort(),
      want,
    );
  }
  // a very selective query takes the per-doc column path
  assert.deepEqual(
    cached.search({ query: '"number 6"', language: 'en', filter, limit: 100 }).hits.map((h) => h.key),
    ['d6'],
  );
  assert.deepEqual(
    cached.search({ query: '"number 5"', language: 'en', filter, limit: 100 }).hits.map((h) => h.key),
    [],
  );
  await index.close();
});

test('filters with unknown fields or bad shapes fail with a typed error', async () => {
  const index = await indexOf(docs.slice(0, 3));
  const s = index.reader.searcher();
  const bad = (filter: unknown) =>
    assert.throws(() => s.search({ query: 'report', filter: filter as Filter, limit: 5 }), {
      name: 'QueryError',
      code: 'invalid_filter',
    });
  bad({ keyword: 'nope', anyOf: ['x'] });
  bad({ numeric: 'acl', gte: 1 });
  bad({ keyword: 'acl', anyOf: 'x' });
  bad({ and: 'x' });
  bad({ something: 1 });
  bad(null);
  await index.close();
});

test('moreLikeThis and duplicatesOf respect the filter too', async () => {
  const topics = [
    'volcano lava eruption magma crater',
    'violin orchestra concert symphony',
    'compiler parser grammar syntax',
  ];
  const varied = Array.from({ length: 24 }, (_, i) =>
    doc(`t${i}`, `Note ${i % 3}`, `${topics[i % 3]} ${topics[i % 3].split(' ').reverse().join(' ')} entry`, {
      keywords: { acl: [`user${i % 2}`] },
    }),
  );
  const index = await indexOf(varied);
  const s = index.reader.searcher();
  const all = s.moreLikeThis('t0', { limit: 50 });
  assert.ok(all.some((h) => Number(h.key.slice(1)) % 2 === 0) && all.some((h) => Number(h.key.slice(1)) % 2 === 1));
  assert.ok(all.every((h) => Number(h.key.slice(1)) % 3 === 0 && h.key !== 't0'));
  const filter: Filter = { keyword: 'acl', anyOf: ['user1'] };
  const mlt = s.moreLikeThis('t0', { limit: 50, filter });
  assert.ok(mlt.length > 0);
  assert.ok(mlt.every((h) => Number(h.key.slice(1)) % 2 === 1));
  const dups = s.duplicatesOf('t0', { limit: 50 });
  assert.ok(dups.some((h) => Number(h.key.slice(1)) % 2 === 0));
  assert.ok(s.duplicatesOf('t0', { limit: 50, filter }).every((h) => Number(h.key.slice(1)) % 2 === 1));
  await index.close();
});

test('keywordValues lists values still carried by a live doc', async () => {
  const index = await indexOf([
    doc('a', 'A', 'x', { keywords: { source: ['wiki'] } }),
    doc('b', 'B', 'y', { keywords: { source: ['drive'] } }),
  ]);
  index.writer.delete('b');
  await index.writer.commit();
  assert.deepEqual(index.reader.searcher().keywordValues('source'), ['wiki']);
  await index.close();
});

test('keywordCounts counts live docs per value across segments, and reader stats count segments and deletions', async () => {
  const index = await indexOf(
    [
      doc('a', 'A', 'x', { keywords: { source: ['wiki'] } }),
      doc('b', 'B', 'y', { keywords: { source: ['drive', 'wiki'] } }),
    ],
    [doc('c', 'C', 'z', { keywords: { source: ['wiki'] } }), doc('d', 'D', 'w', { keywords: { source: ['mail'] } })],
  );
  index.writer.delete('d');
  await index.writer.commit();
  assert.deepEqual([...index.reader.searcher().keywordCounts('source')].sort(), [
    ['drive', 1],
    ['wiki', 3],
  ]);
  const stats = index.reader.stats();
  assert.equal(stats.segments, 2);
  assert.equal(stats.docs, 3);
  assert.equal(stats.deletedDocs, 1);
  assert.ok(stats.bytes > 0);
  await index.close();
});
