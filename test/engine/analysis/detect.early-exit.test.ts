/**
 * detectLanguage reads the first DETECT_PREFIX characters, and stops at the end
 * of the first word where one language leads by 16 votes (one vote per marker
 * word): the opening then decides, whatever follows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectLanguage } from '../../../engine/analysis/index.ts';

/** `n` English marker votes without letter-pattern evidence ("and", "of"). */
const english = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'and' : 'of')).join(' ');
/** `n` German marker votes without letter-pattern evidence ("und", "der"). */
const german = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'und' : 'der')).join(' ');

test('a decisive English opening (16 votes) decides, although the German rest outweighs it', () => {
  const tail = german(60);
  assert.equal(detectLanguage(tail), 'de');
  assert.equal(detectLanguage(`${english(16)} ${tail}`), 'en');
  assert.equal(detectLanguage(`${english(40)} ${tail}`), 'en');
});

test('an English opening just short of decisive (15 votes) does not stop the scan', () => {
  assert.equal(detectLanguage(`${english(15)} ${german(60)}`), 'de');
  assert.equal(detectLanguage(`${english(15)} ${german(10)}`), 'en', 'the whole text still counts: 15 - 10 votes');
});

test('a decisive German opening (16 votes) decides, although the English rest outweighs it', () => {
  const tail = english(60);
  assert.equal(detectLanguage(tail), 'en');
  assert.equal(detectLanguage(`${german(16)} ${tail}`), 'de');
  assert.equal(detectLanguage(`${german(15)} ${tail}`), 'en');
});

test('umlauts count towards the decisive lead (half a vote each)', () => {
  // 8 German votes from words plus 16 umlauts (8 votes) reach 16 votes before the English rest.
  assert.equal(detectLanguage(`${german(8)} ${'ää '.repeat(8)}${english(60)}`), 'de');
  assert.equal(detectLanguage(`${german(8)} ${'ää '.repeat(7)}${english(60)}`), 'en');
});

test('evidence after the first 4000 characters is not read', () => {
  const neutral = 'Server '.repeat(600); // 4200 characters without evidence
  assert.equal(detectLanguage(`${neutral}${english(40)}`), 'de');
  assert.equal(detectLanguage(`${english(40)} ${neutral}`), 'en');
});
