/**
 * Doc keys of a segment: every doc is found by its key (all docs of a key
 * that several docs carry, ascending), absent keys find nothing, at every
 * segment size (the lookup buckets the hashes by their top bits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeysReader, writeKeys } from '../../../engine/columns/keys.ts';
import { rng } from '../helpers/random.ts';

test('keys are found by key at every segment size, repeated keys give all their docs, absent keys none', () => {
  const r = rng(5);
  for (const n of [0, 1, 2, 7, 8, 9, 31, 100, 1000, 5000]) {
    const keys = Array.from({ length: n }, (_, d) => (d > 0 && r() < 0.05 ? `k${Math.floor(r() * d)}` : `k${d}`));
    keys.forEach((k, d) => {
      if (r() < 0.1) keys[d] = `${k}-ü-${'x'.repeat(d % 20)}`;
    });
    const reader = new KeysReader(writeKeys(keys));
    const docsOf = new Map<string, number[]>();
    keys.forEach((k, d) => docsOf.set(k, [...(docsOf.get(k) ?? []), d]));
    for (const [k, docs] of docsOf) assert.deepEqual([...reader.find(k)], docs, `n ${n}, key ${k}`);
    for (let i = 0; i < 50; i++) assert.deepEqual([...reader.find(`absent-${i}`)], [], `n ${n}`);
    keys.forEach((k, d) => assert.equal(reader.key(d), k));
  }
});
