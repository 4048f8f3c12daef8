/**
 * duplicatesOf and moreLikeThis answer the same for a source given as a key or as a hit:
 * a hit of the same snapshot (found by its ref), a hit of an older snapshot whose doc was
 * updated since (found by its key), and a hit whose doc is gone (nothing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf } from '../helpers/index-fixture.ts';

const long = (extra: string) =>
  `Quarterly budget planning for the research department covers salaries, equipment, travel, conferences, ` +
  `software licences, laboratory supplies, maintenance contracts and external consultants. ${extra} ` +
  `Every team lead submits estimates before the deadline and the finance office consolidates them into one plan.`;

const keys = (hits: { key: string; score: number }[]) => hits.map((h) => `${h.key}:${h.score}`);

test('a hit and its key give the same near-duplicates and similar docs', async () => {
  const index = await indexOf(
    [
      doc('orig', 'Budget plan', long('')),
      doc('copy', 'Budget plan', long('')),
      doc('v1', 'Volcano', 'Lava and magma erupt from the volcano crater.'),
    ],
    [
      doc('copy2', 'Budget plan', long('')),
      doc('v2', 'Eruption', 'The crater filled with lava after the eruption of the volcano.'),
      doc('budget2', 'Budget', long('Travel costs rise.')),
    ],
  );
  const s = index.reader.searcher();
  const hits = s.search({ query: 'budget volcano', language: 'en', limit: 10 }).hits;
  assert.ok(hits.length >= 4);
  for (const h of hits) {
    assert.deepEqual(keys(s.duplicatesOf(h, { limit: 10 })), keys(s.duplicatesOf(h.key, { limit: 10 })), h.key);
    assert.deepEqual(keys(s.moreLikeThis(h, { limit: 10 })), keys(s.moreLikeThis(h.key, { limit: 10 })), h.key);
    assert.deepEqual(
      keys(s.moreLikeThis(h, { limit: 10, fields: ['body'] })),
      keys(s.moreLikeThis(h.key, { limit: 10, fields: ['body'] })),
      h.key,
    );
  }
  index.reader.release(s);
  await index.close();
});

test('a hit of an older snapshot is found by its key; a deleted one finds nothing', async () => {
  const index = await indexOf([
    doc('orig', 'Budget plan', long('')),
    doc('copy', 'Budget plan', long('')),
    doc('gone', 'Budget plan', long('')),
  ]);
  const old = index.reader.searcher();
  const hits = old.search({ query: 'budget', language: 'en', limit: 10 }).hits;
  index.writer.add(doc('orig', 'Budget plan', long('Updated.')));
  index.writer.delete('gone');
  await index.writer.commit();
  const s = index.reader.searcher();
  for (const h of hits) {
    assert.deepEqual(keys(s.duplicatesOf(h, { limit: 10 })), keys(s.duplicatesOf(h.key, { limit: 10 })), h.key);
    assert.deepEqual(keys(s.moreLikeThis(h, { limit: 10 })), keys(s.moreLikeThis(h.key, { limit: 10 })), h.key);
  }
  const gone = hits.find((h) => h.key === 'gone')!;
  assert.deepEqual(s.duplicatesOf(gone, { limit: 10 }), []);
  assert.deepEqual(s.moreLikeThis(gone, { limit: 10 }), []);
  index.reader.release(old);
  index.reader.release(s);
  await index.close();
});
