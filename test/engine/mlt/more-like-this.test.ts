/** More-like-this through the searcher: docs sharing the source's characteristic terms rank first, the source never. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, indexOf } from '../helpers/index-fixture.ts';

test('moreLikeThis ranks docs sharing characteristic terms and excludes the doc itself', async () => {
  const index = await indexOf([
    doc('v1', 'Volcano', 'Lava and magma erupt from the volcano crater during an eruption.'),
    doc('v2', 'Eruption', 'The crater filled with lava after the eruption of the volcano.'),
    doc('m1', 'Music', 'The orchestra played a symphony with violin and cello.'),
    doc('m2', 'Concert', 'A violin concerto closed the concert of the orchestra.'),
    doc('c1', 'Code', 'The compiler parses the grammar and checks the syntax.'),
  ]);
  const s = index.reader.searcher();
  const hits = s.moreLikeThis('v1', { limit: 3 });
  assert.equal(hits[0].key, 'v2');
  assert.ok(hits.every((h) => h.key !== 'v1' && h.key !== 'c1'));
  assert.deepEqual(
    s.moreLikeThis('m1', { limit: 5 }).map((h) => h.key),
    ['m2'],
  );
  assert.deepEqual(s.moreLikeThis('missing', { limit: 5 }), []);
  await index.close();
});
