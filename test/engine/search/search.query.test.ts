/** Free-text search through the public API: OR ranking, boosts, phrases, +required, -excluded, pagination, updates. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf } from '../helpers/index-fixture.ts';

const docs = [
  doc('both', 'Fruit notes', 'An apple and a banana on the table.'),
  doc('apple', 'Orchard', 'The apple tree grows near the river.'),
  doc('banana', 'Market', 'A banana seller shouts in the market.'),
  doc('none', 'Weather', 'Cold rain falls over the mountains.'),
  doc('title-apple', 'Apple', 'Something about a red fruit grown in orchards.'),
  doc('phrase', 'Cars', 'She drove the red car to the station.'),
  doc('reversed', 'Cars', 'The car was red after the paint job.'),
  doc('gap', 'Cars', 'A red sports car passed by.'),
];

test('terms are OR-ed and docs matching more terms rank first', async () => {
  const index = await indexOf(docs);
  const s = index.reader.searcher();
  const res = s.search({ query: 'apple banana', language: 'en', limit: 10 });
  const keys = res.hits.map((h) => h.key);
  assert.ok(keys.indexOf('both') < keys.indexOf('apple') && keys.indexOf('both') < keys.indexOf('banana'));
  assert.deepEqual([...keys].sort(), ['apple', 'banana', 'both', 'title-apple']);
  assert.equal(res.total, 4);
  assert.equal(res.totalIsExact, true);
  for (let i = 1; i < res.hits.length; i++) assert.ok(res.hits[i - 1].score >= res.hits[i].score);
  await index.close();
});

test('a title match outranks a body match (title boost 2)', async () => {
  const index = await indexOf(docs);
  const keys = index.reader
    .searcher()
    .search({ query: 'apple', language: 'en', limit: 10 })
    .hits.map((h) => h.key);
  assert.equal(keys[0], 'title-apple');
  await index.close();
});

test('quoted phrases match adjacent words in order only', async () => {
  const index = await indexOf(docs);
  const s = index.reader.searcher();
  assert.deepEqual(
    s.search({ query: '"red car"', language: 'en', limit: 10 }).hits.map((h) => h.key),
    ['phrase'],
  );
  const loose = s.search({ query: 'red car', language: 'en', limit: 10 }).hits.map((h) => h.key);
  assert.deepEqual([...loose].sort(), ['gap', 'phrase', 'reversed', 'title-apple']);
  assert.equal(loose[0], 'phrase');
  await index.close();
});

test('+required and -excluded terms and phrases', async () => {
  const index = await indexOf(docs);
  const s = index.reader.searcher();
  const keys = (q: string) =>
    s
      .search({ query: q, language: 'en', limit: 10 })
      .hits.map((h) => h.key)
      .sort();
  assert.deepEqual(keys('+apple banana'), ['apple', 'both', 'title-apple']);
  assert.deepEqual(keys('apple -banana'), ['apple', 'title-apple']);
  assert.deepEqual(keys('car -"red car"'), ['gap', 'reversed']);
  assert.deepEqual(keys('+"red car" +station'), ['phrase']);
  assert.deepEqual(keys('-apple'), []);
  assert.deepEqual(keys('+zebra apple'), []);
  await index.close();
});

test('pagination by offset walks the same ranking', async () => {
  const index = await indexOf(docs);
  const s = index.reader.searcher();
  const all = s.search({ query: 'apple banana red car', language: 'en', limit: 100 }).hits.map((h) => h.key);
  assert.ok(all.length >= 6);
  const pages = [0, 2, 4].flatMap((offset) =>
    s.search({ query: 'apple banana red car', language: 'en', limit: 2, offset }).hits.map((h) => h.key),
  );
  assert.deepEqual(pages, all.slice(0, 6));
  assert.throws(() => s.search({ query: 'apple', limit: -1 }), { code: 'invalid_request' });
  await index.close();
});

test('scores use statistics of the whole snapshot, not of one segment', async () => {
  const one = await indexOf(docs);
  const two = await indexOf(docs.slice(0, 4), docs.slice(4));
  assert.equal(two.reader.segments().length, 2);
  const a = one.reader.searcher().search({ query: 'apple red', language: 'en', limit: 10 });
  const b = two.reader.searcher().search({ query: 'apple red', language: 'en', limit: 10 });
  assert.deepEqual(
    b.hits.map((h) => [h.key, h.score]),
    a.hits.map((h) => [h.key, h.score]),
  );
  await one.close();
  await two.close();
});

test('deleted and replaced docs disappear after commit; stored payload and get()', async () => {
  const index = await indexOf([
    ...docs
      .slice(0, 4)
      .map((d) => ({ ...d, stored: { url: `u/${d.key}` }, keywords: { source: ['wiki'] }, numbers: { modified: 7 } })),
  ]);
  let s = index.reader.searcher();
  const stored = s
    .search({ query: 'apple', language: 'en', limit: 10 })
    .hits.map((h) => h.stored.url)
    .sort();
  assert.deepEqual(stored, ['u/apple', 'u/both']);
  assert.deepEqual(s.get('apple'), {
    key: 'apple',
    stored: { url: 'u/apple' },
    keywords: { source: ['wiki'] },
    numbers: { modified: 7 },
  });
  assert.equal(s.get('missing'), null);
  index.writer.delete('apple');
  index.writer.add(doc('both', 'Fruit notes', 'Only a banana now.'));
  await index.writer.commit();
  s = index.reader.searcher();
  assert.deepEqual(
    s.search({ query: 'apple', language: 'en', limit: 10 }).hits.map((h) => h.key),
    [],
  );
  assert.deepEqual(
    s
      .search({ query: 'banana', language: 'en', limit: 10 })
      .hits.map((h) => h.key)
      .sort(),
    ['banana', 'both'],
  );
  assert.equal(s.get('apple'), null);
  await index.close();
});

test('a blank query lists every doc (score 0) and respects the limit', async () => {
  const index = await indexOf(docs);
  const res = index.reader.searcher().search({ query: '  ', limit: 3 });
  assert.equal(res.total, docs.length);
  assert.equal(res.hits.length, 3);
  assert.ok(res.hits.every((h) => h.score === 0));
  await index.close();
});

test('clause boosts multiply a clause weight; hits serialise with their stored payload', async () => {
  const index = await indexOf(docs.map((d) => ({ ...d, stored: { k: d.key } })));
  const s = index.reader.searcher();
  const parsed = s.parse('apple banana', 'en');
  const plain = s.search({ query: parsed, limit: 10 });
  const muted = s.search({
    query: { ...parsed, clauses: parsed.clauses.map((c, i) => (i === 1 ? { ...c, boost: 0 } : c)) },
    limit: 10,
  });
  const scoreOf = (res: typeof plain, key: string) => res.hits.find((h) => h.key === key)?.score;
  assert.equal(scoreOf(muted, 'banana'), 0);
  assert.equal(scoreOf(muted, 'apple'), scoreOf(plain, 'apple'));
  assert.throws(() => s.search({ query: { ...parsed, clauses: [{ ...parsed.clauses[0], boost: -1 }] }, limit: 1 }), {
    code: 'invalid_query',
  });
  const json = JSON.parse(JSON.stringify(plain.hits[0]));
  assert.deepEqual(json.stored, { k: plain.hits[0].key });
  await index.close();
});

test('malformed requests fail with typed errors, never a crash', async () => {
  const index = await indexOf(docs.slice(0, 2));
  const s = index.reader.searcher();
  const bad = (req: unknown, code: string) => assert.throws(() => s.search(req as never), { name: 'QueryError', code });
  bad(null, 'invalid_request');
  bad({ query: 42, limit: 1 }, 'invalid_request');
  bad({ query: 'x', limit: 1.5 }, 'invalid_request');
  bad({ query: 'x', limit: 1, offset: -2 }, 'invalid_request');
  bad({ query: 'x', limit: 20000 }, 'invalid_request');
  bad({ query: 'x', limit: 1, language: 'fr' }, 'invalid_request');
  bad({ query: 'x'.repeat(10000), limit: 1 }, 'query_too_long');
  assert.deepEqual(s.search({ query: '"unterminated phrase', limit: 1 }).hits, []);
  assert.deepEqual(s.search({ query: '+ - "" ++ --', limit: 1 }).hits, []);
  await index.close();
});

test('an empty index answers every call with nothing', async () => {
  const index = await indexOf();
  const s = index.reader.searcher();
  assert.deepEqual(s.search({ query: 'apple', limit: 10 }), { total: 0, totalIsExact: true, hits: [] });
  assert.deepEqual(s.search({ query: '', limit: 10 }).hits, []);
  assert.equal(s.get('x'), null);
  assert.deepEqual(s.moreLikeThis('x', { limit: 5 }), []);
  assert.deepEqual(s.duplicatesOf('x', { limit: 5 }), []);
  assert.deepEqual(s.keywordValues('source'), []);
  await index.close();
});
