/** BoundedMap: never holds more than its bound, keeps recently read entries, and answers like a Map for what it holds. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from '../../../engine/util/bounded-map.ts';

test('holds at most maxEntries entries and drops the least recently used first', () => {
  const m = new BoundedMap<string, number>(10);
  for (let i = 0; i < 100; i++) {
    m.set(`k${i}`, i);
    assert.ok(m.size <= 10, `size ${m.size} after ${i + 1} writes`);
  }
  assert.equal(m.get('k99'), 99);
  assert.equal(m.get('k0'), undefined);
});

test('an entry read once per half bound of writes is kept', () => {
  const m = new BoundedMap<string, number>(8);
  m.set('hot', 1);
  for (let i = 0; i < 200; i++) {
    m.set(`k${i}`, i);
    if (i % 3 === 0) assert.equal(m.get('hot'), 1, `after ${i + 1} writes`);
  }
});

test('agrees with a Map on random operations for the keys it still holds', () => {
  const m = new BoundedMap<number, number>(16);
  const ref = new Map<number, number>();
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 5000; i++) {
    const k = Math.floor(rnd() * 40);
    const op = rnd();
    if (op < 0.5) {
      m.set(k, i);
      ref.set(k, i);
    } else if (op < 0.9) {
      const v = m.get(k);
      if (v !== undefined) assert.equal(v, ref.get(k));
    } else {
      m.delete(k);
      ref.delete(k);
      assert.equal(m.get(k), undefined);
    }
    assert.ok(m.size <= 16);
  }
  m.clear();
  assert.equal(m.size, 0);
});
