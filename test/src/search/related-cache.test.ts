/** RelatedCache: entries are scoped by snapshot generation and the viewer's token set; LRU eviction; similar lists reused across snapshots only when fresh and live. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RelatedCache } from '../../../src/search/related-cache.ts';

const lists = (id: string) => ({
  duplicates: [],
  similar: [{ id, title: '', path_preview: '', data_source: 'd' }],
  sameThread: [],
});

test("a different generation or token set never sees another scope's entries", () => {
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

test('similar lists are reused across snapshots only when fresh enough and every listed version is live', () => {
  const c = new RelatedCache(100, 100, { minDocs: 1000, maxDrift: 0.02, maxAgeMs: 1000 });
  const v = c.viewer(['d|*']);
  const src = { segmentId: 's1', doc: 3 };
  const item = (id: string, segmentId: string, doc: number) => ({
    entry: { id, title: '', path_preview: '', data_source: 'd' },
    version: { segmentId, doc },
  });
  c.setSimilar(v, src, { generation: 1, numDocs: 10_000, now: 0 }, [item('d:a', 's1', 5), item('d:b', 's2', 0)]);
  const live = () => true;
  const at = (generation: number, numDocs: number, now: number) => ({ generation, numDocs, now });
  assert.deepEqual(
    c.similar(v, src, at(2, 10_100, 500), live)?.map((d) => d.id),
    ['d:a', 'd:b'],
    'next snapshot, 1% more docs',
  );
  assert.equal(c.similar(c.viewer(['d|*', 'd|g']), src, at(2, 10_100, 500), live), undefined, 'another token set');
  assert.equal(
    c.similar(v, { segmentId: 's9', doc: 3 }, at(2, 10_100, 500), live),
    undefined,
    'another version of the source',
  );
  assert.equal(c.similar(v, src, at(2, 10_300, 500), live), undefined, 'doc count moved by 3%');
  c.setSimilar(v, src, { generation: 1, numDocs: 10_000, now: 0 }, [item('d:a', 's1', 5)]);
  assert.equal(c.similar(v, src, at(2, 10_000, 1001), live), undefined, 'too old');
  c.setSimilar(v, src, { generation: 1, numDocs: 10_000, now: 0 }, [item('d:a', 's1', 5), item('d:b', 's2', 0)]);
  assert.equal(
    c.similar(v, src, at(2, 10_000, 10), (x) => x.segmentId !== 's2'),
    undefined,
    'a listed version is gone',
  );
  assert.equal(c.similar(v, src, at(2, 10_000, 10), live), undefined, 'dropped once stale');
  const small = new RelatedCache();
  const w = small.viewer(['t']);
  small.setSimilar(w, src, { generation: 1, numDocs: 500, now: 0 }, [item('d:a', 's1', 5)]);
  assert.ok(small.similar(w, src, at(1, 500, 0), live), 'same snapshot');
  assert.equal(small.similar(w, src, at(2, 500, 0), live), undefined, 'small indexes recompute on every snapshot');
});

test('lists of earlier snapshots are dropped once a later snapshot is asked for (commits do not fill the cache)', () => {
  const c = new RelatedCache();
  for (let generation = 1; generation <= 50; generation++) {
    const s = c.scope(generation, ['d|*']);
    for (let i = 0; i < 20; i++) c.set(s, `d:${i}`, lists(`d:${i + 1}`));
    assert.equal(c.size, 20, `generation ${generation}`);
  }
  // A search still on an earlier snapshot keeps working (its keys are its own), without a reset.
  const late = c.scope(49, ['d|*']);
  c.set(late, 'd:1', lists('d:2'));
  assert.deepEqual(c.get(late, 'd:1'), lists('d:2'));
  assert.equal(c.size, 21);
});

test('document entries and similar lists of segments a later snapshot no longer has are dropped', () => {
  // Similar lists reusable across any snapshots: only the dropped segment can make one go.
  const c = new RelatedCache(100, 100, { minDocs: 0, maxDrift: 1, maxAgeMs: 1e9 });
  const v = c.viewer(['d|*']);
  const doc = { id: 'd:1', title: '', path_preview: '', data_source: 'd' };
  c.viewerScope(1, v, () => ['s1', 's2']);
  c.keepDoc('s1', 0, doc);
  c.keepDoc('s2', 0, doc);
  const at = { generation: 1, numDocs: 10, now: 0 };
  c.setSimilar(v, { segmentId: 's1', doc: 0 }, at, [{ entry: doc, version: { segmentId: 's2', doc: 0 } }]);
  c.viewerScope(2, v, () => ['s2', 's3']); // s1 merged away
  assert.equal(c.cachedDoc('s1', 0), undefined);
  assert.deepEqual(c.cachedDoc('s2', 0), doc);
  assert.equal(
    c.similar(v, { segmentId: 's1', doc: 0 }, { ...at, generation: 2 }, () => true),
    undefined,
  );
});
