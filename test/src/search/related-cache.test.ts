/** RelatedCache: entries are scoped by snapshot generation and the viewer's token set; LRU eviction. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RelatedCache } from '../../../src/search/related-cache.ts';

const lists = (id: string) => ({ duplicates: [], similar: [{ id, title: '', path_preview: '', data_source: 'd' }], sameThread: [] });

test('a different generation or token set never sees another scope\'s entries', () => {
  const c = new RelatedCache();
  const a = c.scope(1, ['d|*', 'd|g|x']);
  c.set(a, 'd:1', lists('d:2'));
  assert.deepEqual(c.get(c.scope(1, ['d|*', 'd|g|x']), 'd:1'), lists('d:2'));
  assert.equal(c.get(c.scope(2, ['d|*', 'd|g|x']), 'd:1'), undefined, 'new snapshot');
  assert.equal(c.get(c.scope(1, ['d|*']), 'd:1'), undefined, 'fewer tokens');
  assert.equal(c.get(c.scope(1, ['d|*', 'd|g|x', 'd|g|y']), 'd:1'), undefined, 'more tokens');
});

test('least recently used entries are evicted; too many scopes reset the cache', () => {
  const c = new RelatedCache(2, 3);
  const s = c.scope(1, ['t']);
  c.set(s, 'a', lists('a'));
  c.set(s, 'b', lists('b'));
  c.get(s, 'a');
  c.set(s, 'c', lists('c'));
  assert.equal(c.size, 2);
  assert.equal(c.get(s, 'b'), undefined);
  assert.ok(c.get(s, 'a') && c.get(s, 'c'));
  c.scope(1, ['u']);
  c.scope(1, ['v']);
  c.scope(1, ['w']);
  assert.equal(c.size, 0);
});
