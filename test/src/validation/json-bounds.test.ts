/**
 * Bounded JSON values: depth and size checks for stored values, and the
 * bounded copy that 422 answers echo (never throws, always serialisable).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedCopy, jsonDepthExceeds, jsonSizeExceeds } from '../../../src/validation/json-bounds.ts';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

test('depth: scalars are 0, each container one level; far deeper values are walked safely', () => {
  assert.equal(jsonDepthExceeds('x', 0), false);
  assert.equal(jsonDepthExceeds([], 0), true);
  assert.equal(jsonDepthExceeds(nested(64), 64), false);
  assert.equal(jsonDepthExceeds(nested(65), 64), true);
  assert.equal(jsonDepthExceeds({ a: [{ b: nested(100_000) }] }, 64), true);
});

test('size counts the JSON text', () => {
  const value = { ab: ['x"z\n', 12, null] };
  const n = JSON.stringify(value).length;
  assert.equal(jsonSizeExceeds(value, n), false);
  assert.equal(jsonSizeExceeds(value, n - 3), true);
});

test('a bounded copy keeps small values and replaces deep, long and large parts', () => {
  assert.deepEqual(boundedCopy({ a: [1, 'two', { three: null }] }), { a: [1, 'two', { three: null }] });
  assert.equal(boundedCopy('short'), 'short');
  assert.match(String(boundedCopy('x'.repeat(20_000))), /^<string of 20000 characters/);
  const deep = boundedCopy(nested(100_000));
  assert.match(JSON.stringify(deep), /nested deeper than 32 levels/);
  assert.match(JSON.stringify(boundedCopy(Array.from({ length: 20_000 }, (_, i) => i))), /array of 20000 items/);
  const proto = boundedCopy(JSON.parse('{"__proto__": {"polluted": 1}}')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(proto), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
