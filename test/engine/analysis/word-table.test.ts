/**
 * The analysis memo table: lookups by string and by text range, growth, the
 * size bound, and agreement of the tokenizer's in-scan hash with hashRangeLower.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MISSING, WordTable, hashRangeLower, hashString } from '../../../engine/analysis/word-table.ts';
import { tokenize } from '../../../engine/analysis/index.ts';

test('finds values by string and by lower-cased text range, across growth', () => {
  const t = new WordTable(100_000);
  for (let i = 0; i < 20_000; i++) t.set(`w${i}`, hashString(`w${i}`), i);
  assert.equal(t.size, 20_000);
  for (let i = 0; i < 20_000; i += 997) assert.equal(t.get(`w${i}`, hashString(`w${i}`)), i);
  const text = 'xx W123 yy';
  assert.equal(t.getRange(text, 3, 7, hashRangeLower(text, 3, 7)), 123);
  assert.equal(t.getRange(text, 3, 7, hashRangeLower(text, 3, 7)), 123, 'second lookup (front cache)');
  assert.equal(t.get('w20000', hashString('w20000')), MISSING);
  assert.equal(t.getRange('xx W2 yy', 3, 5, hashRangeLower('xx W2 yy', 3, 5)), 2);
  assert.equal(t.getRange('xx W9999999 yy', 3, 11, hashRangeLower('xx W9999999 yy', 3, 11)), MISSING);
  assert.equal(t.getRange('w1234', 0, 4, hashRangeLower('w1234', 0, 4)), 123);
});

test('is cleared when it reaches its limit', () => {
  const t = new WordTable(1000);
  for (let i = 0; i < 1000; i++) t.set(`k${i}`, hashString(`k${i}`), -1);
  assert.equal(t.size, 1000);
  assert.equal(t.getRange('K1', 0, 2, hashRangeLower('K1', 0, 2)), -1, 'now in the front cache');
  t.set('extra', hashString('extra'), -7);
  assert.equal(t.size, 1);
  assert.equal(t.get('k1', hashString('k1')), MISSING);
  assert.equal(t.getRange('K1', 0, 2, hashRangeLower('K1', 0, 2)), MISSING, 'front cache cleared too');
  assert.equal(t.get('extra', hashString('extra')), -7);
});

test('tokenize passes the same hash as hashRangeLower for ASCII words, 0 otherwise', () => {
  const text = "Hello WORLD don't x-Y.z über";
  const seen: Array<[string, number, number]> = [];
  tokenize(text, {
    compound() {},
    word(s, e, _f, h) {
      seen.push([text.slice(s, e), h, hashRangeLower(text, s, e)]);
    },
  });
  for (const [w, h, want] of seen) {
    if (w === 'über') assert.equal(h, 0);
    else assert.equal(h, want, w);
  }
  assert.equal(seen.length, 7);
});
