/** The stored file size of a text document is its UTF-8 byte length, counted the way TextEncoder encodes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Length } from '../../../src/documents/convert.ts';
import { prng } from '../../support/prng.ts';

test('utf8Length equals the encoded length, for short and long, valid and broken UTF-16', () => {
  const enc = new TextEncoder();
  const rng = prng(7);
  const cases = [
    '',
    'abc',
    'Größe',
    '€uro',
    '😀x',
    '\ud800',
    'a\udc00b',
    '\ud83d\ude00\ud83d',
    'x'.repeat(1000) + 'ü',
    '€'.repeat(30_000),
    'a'.repeat(21_845) + '😀',
  ];
  for (let i = 0; i < 500; i++) {
    let s = '';
    for (let j = rng.int(12); j > 0; j--) s += String.fromCharCode(rng.int(65_536));
    cases.push(s);
  }
  for (const s of cases) assert.equal(utf8Length(s), enc.encode(s).byteLength, JSON.stringify(s.slice(0, 20)));
});
