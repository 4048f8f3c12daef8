/**
 * SegmentCache: entries are dropped with their segment when a later snapshot no longer has it
 * (not by an earlier snapshot asking late), the bound evicts the least recently used segments
 * first, and a segment larger than the bound alone starts over.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SegmentCache } from '../../../engine/index.ts';

test('retain drops the entries of segments a later snapshot no longer has', () => {
  const c = new SegmentCache<number, string>(1000);
  for (const seg of ['s1', 's2', 's3']) for (let d = 0; d < 10; d++) c.set(seg, d, `${seg}:${d}`);
  assert.equal(c.size, 30);
  c.retain(5, () => ['s2', 's3', 's4']); // s1 merged away
  assert.equal(c.size, 20);
  assert.equal(c.get('s1', 0), undefined);
  assert.equal(c.get('s2', 3), 's2:3');
  c.retain(4, () => []); // an older snapshot asking late drops nothing
  assert.equal(c.size, 20);
  c.delete('s3', 0);
  assert.equal(c.size, 19);
});

test('past the bound the least recently used segments go first, down to half the bound', () => {
  const c = new SegmentCache<number, number>(10);
  for (const seg of ['a', 'b', 'c']) for (let d = 0; d < 3; d++) c.set(seg, d, d);
  c.get('a', 0); // least recently used now: b, then c
  c.set('d', 0, 0);
  assert.equal(c.size, 10);
  c.set('d', 1, 1);
  assert.equal(c.get('b', 0), undefined);
  assert.equal(c.get('c', 0), undefined);
  assert.equal(c.get('a', 2), 2);
  assert.equal(c.get('d', 1), 1);
  assert.equal(c.size, 5);
  const big = new SegmentCache<number, number>(4);
  for (let d = 0; d < 9; d++) big.set('only', d, d);
  assert.ok(big.size <= 4 && big.size >= 1);
  assert.equal(big.get('only', 8), 8);
});
