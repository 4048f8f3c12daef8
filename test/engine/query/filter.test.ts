/** Filter building blocks: cache keys, bitsets vs per-doc predicates, next-set-bit skipping, cache eviction. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildFilterBits,
  compileFilter,
  FilterCache,
  filterKey,
  filterPredicate,
  nextSetBit,
} from '../../../engine/query/filter.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';
import type { Filter } from '../../../engine/query/types.ts';
import { memorySegment } from '../helpers/memory-segment.ts';
import type { MemDoc } from '../helpers/memory-segment.ts';
import { simpleAnalyzer } from '../helpers/simple-analyzer.ts';
import { int, rng } from '../helpers/random.ts';

test('filter keys ignore value order and duplicates but not structure', () => {
  assert.equal(filterKey({ keyword: 'acl', anyOf: ['b', 'a', 'a'] }), filterKey({ keyword: 'acl', anyOf: ['a', 'b'] }));
  assert.equal(
    filterKey({
      and: [
        { numeric: 'n', gte: 1 },
        { keyword: 'k', anyOf: ['x'] },
      ],
    }),
    filterKey({
      and: [
        { keyword: 'k', anyOf: ['x'] },
        { numeric: 'n', gte: 1 },
      ],
    }),
  );
  assert.notEqual(filterKey({ numeric: 'n', gte: 1 }), filterKey({ numeric: 'n', lte: 1 }));
  assert.notEqual(filterKey({ not: { keyword: 'k', anyOf: ['x'] } }), filterKey({ keyword: 'k', anyOf: ['x'] }));
});

test('bitsets and per-doc predicates agree on random filters', () => {
  const r = rng(11);
  const docs: MemDoc[] = Array.from({ length: 300 }, (_, i) => ({
    key: `d${i}`,
    text: { body: 'x' },
    keywords: { acl: Array.from({ length: int(r, 0, 3) }, () => `t${int(r, 0, 12)}`) },
    numbers: r() < 0.8 ? { n: int(r, 0, 50) } : ({} as Record<string, number>),
  }));
  const seg = memorySegment('s', docs, { analyze: simpleAnalyzer.analyze });
  const leaf = (): Filter =>
    r() < 0.6
      ? { keyword: 'acl', anyOf: Array.from({ length: int(r, 0, 4) }, () => `t${int(r, 0, 12)}`) }
      : { numeric: 'n', gte: r() < 0.5 ? int(r, 0, 30) : undefined, lte: r() < 0.5 ? int(r, 20, 50) : undefined };
  const tree = (depth: number): Filter => {
    const x = r();
    if (depth > 2 || x < 0.4) return leaf();
    if (x < 0.6) return { and: [tree(depth + 1), tree(depth + 1)] };
    if (x < 0.8) return { or: [tree(depth + 1), tree(depth + 1), tree(depth + 1)] };
    return { not: tree(depth + 1) };
  };
  for (let q = 0; q < 200; q++) {
    const f = tree(0);
    const bits = buildFilterBits(f, seg);
    const pred = filterPredicate(f, seg);
    for (let d = 0; d < seg.maxDoc; d++)
      assert.equal((bits[d >>> 5] & (1 << (d & 31))) !== 0, pred(d), JSON.stringify(f));
    // nextSetBit walks exactly the accepted docs
    const walked: number[] = [];
    for (let d = nextSetBit(bits, 0, seg.maxDoc); d !== NO_MORE_DOCS; d = nextSetBit(bits, d + 1, seg.maxDoc))
      walked.push(d);
    assert.deepEqual(
      walked,
      docs.map((_, d) => d).filter((d) => pred(d)),
    );
  }
});

test('the filter cache evicts least recently used bitsets beyond its byte budget', () => {
  const cache = new FilterCache(3 * 400);
  for (let i = 0; i < 3; i++) cache.set('s', `f${i}`, new Uint32Array(100));
  assert.ok(cache.get('s', 'f0'));
  cache.set('s', 'f3', new Uint32Array(100));
  assert.equal(cache.get('s', 'f1'), undefined);
  assert.ok(cache.get('s', 'f0') && cache.get('s', 'f2') && cache.get('s', 'f3'));
});

test('cache entries are found by (segment, key) pairs, replaced in place, and counted in bytes', () => {
  const cache = new FilterCache(10_000);
  const key = filterKey({ keyword: 'acl', anyOf: Array.from({ length: 400 }, (_, i) => `t${i}`) });
  cache.set('s1', key, new Uint32Array(10));
  cache.set('s2', key, new Uint32Array(20));
  cache.set('s1', key, new Uint32Array(30));
  assert.equal(cache.get('s1', key)?.length, 30);
  assert.equal(cache.get('s2', key)?.length, 20);
  assert.equal(cache.get('s3', key), undefined);
  assert.equal(cache.size, 200);
});

test('a filter used again on a segment is kept as a bitset even for a selective query', () => {
  const seg = memorySegment(
    'seg',
    Array.from({ length: 200 }, (_, d): MemDoc => ({ key: `d${d}`, text: {}, keywords: { acl: [`u${d % 50}`] } })),
    { analyze: simpleAnalyzer.analyze },
  );
  const cache = new FilterCache();
  const filter = { keyword: 'acl', anyOf: ['u1', 'u2', 'u3'] };
  const key = filterKey(filter);
  const first = compileFilter(filter, key, seg, cache, 1);
  assert.equal(first.bits, null, 'first use of a selective query: per-doc checks');
  const second = compileFilter(filter, key, seg, cache, 1);
  assert.ok(second.bits, 'second use: bitset built and cached');
  assert.equal(cache.get('seg', key), second.bits);
  for (let d = 0; d < 200; d++) assert.equal(second.matches(d), [1, 2, 3].includes(d % 50));
  for (let d = 0; d < 200; d++) assert.equal(first.matches(d), [1, 2, 3].includes(d % 50));
});

test('a cached filter that keeps every doc of a segment compiles to no per-doc check, one that misses a doc does not', () => {
  for (const n of [31, 32, 33, 200]) {
    const docs = Array.from({ length: n }, (_, d): MemDoc => ({
      key: `d${d}`,
      text: {},
      keywords: { acl: d === n - 1 ? ['last'] : ['all'] },
    }));
    const seg = memorySegment(`seg${n}`, docs, { analyze: simpleAnalyzer.analyze });
    const cache = new FilterCache();
    const everyone = { keyword: 'acl', anyOf: ['all', 'last'] };
    const whole = compileFilter(everyone, filterKey(everyone), seg, cache, 1e9);
    assert.equal(whole.all, true, `n=${n}`);
    assert.equal(whole.bits, null);
    for (let d = 0; d < n; d++) assert.equal(whole.matches(d), true);
    const most = { keyword: 'acl', anyOf: ['all'] };
    const part = compileFilter(most, filterKey(most), seg, cache, 1e9);
    assert.equal(part.all, false, `n=${n}`);
    assert.ok(part.bits);
    for (let d = 0; d < n; d++) assert.equal(part.matches(d), d !== n - 1);
  }
});

test('use counts are bounded: after 65,536 (key, segment) pairs, new segments every commit, the counts start over', () => {
  const cache = new FilterCache();
  for (let i = 0; i < 3; i++) cache.usage('seg-first', 'acl-key', () => 10);
  assert.equal(cache.usage('seg-first', 'acl-key', () => 10).uses, 4);
  for (let s = 0; s < 65_536; s++) cache.usage(`seg-${s}`, 'acl-key', () => 10);
  assert.equal(cache.usage('seg-first', 'acl-key', () => 10).uses, 1);
});
