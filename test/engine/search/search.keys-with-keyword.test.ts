/**
 * Searcher.keysWithKeyword: every live doc carrying a keyword value, without
 * the 10,000-hit limit of searches, across segments, with deletions and
 * replaced keys (a replaced doc is yielded once, in its live segment).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf } from '../helpers/index-fixture.ts';

test('keysWithKeyword yields each live key of the value once, beyond the search limit', async () => {
  const make = (i: number, source: string) =>
    doc(`d${i}`, `title ${i}`, `body ${i}`, { keywords: { source: [source] } });
  const first = Array.from({ length: 13_000 }, (_, i) => make(i, i % 5 === 0 ? 'other' : 'share'));
  // A second segment replaces d1 (still 'share') and d2 (moved to 'other').
  const index = await indexOf(first, [make(1, 'share'), make(2, 'other')]);
  index.writer.delete('d4');
  await index.writer.commit();
  const s = index.reader.searcher();
  const got = [...s.keysWithKeyword('source', 'share')];
  const want = first
    .map((_, i) => i)
    .filter((i) => i % 5 !== 0 && i !== 2 && i !== 4)
    .map((i) => `d${i}`);
  assert.equal(got.length, want.length);
  assert.deepEqual(new Set(got), new Set(want));
  assert.ok(got.length > 10_000, 'more keys than one search window (10,000 hits)');
  assert.deepEqual([...s.keysWithKeyword('source', 'nope')], []);
  assert.throws(() => [...s.keysWithKeyword('unknown', 'x')], { code: 'invalid_filter' });
  index.reader.release(s);
  await index.close();
});
