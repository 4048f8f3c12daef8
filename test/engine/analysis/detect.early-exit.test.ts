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

for (const [lang, opening, rest] of [
  ['en', english, german],
  ['de', german, english],
] as const) {
  const other = lang === 'en' ? 'de' : 'en';
  test(`a decisive ${lang} opening (16 votes) decides, although the ${other} rest outweighs it`, () => {
    const tail = rest(60);
    assert.equal(detectLanguage(tail), other);
    assert.equal(detectLanguage(`${opening(16)} ${tail}`), lang);
    assert.equal(detectLanguage(`${opening(40)} ${tail}`), lang);
    assert.equal(detectLanguage(`${opening(15)} ${tail}`), other, 'one vote short: the scan goes on');
  });
}

test('an English opening just short of decisive (15 votes) does not stop the scan', () => {
  assert.equal(detectLanguage(`${english(15)} ${german(60)}`), 'de');
  assert.equal(detectLanguage(`${english(15)} ${german(10)}`), 'en', 'the whole text still counts: 15 - 10 votes');
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
