/** Query parser: words, "phrases", +required, -excluded, stopwords, compounds, limits. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, QueryError, tokenizeQuery } from '../../../engine/query/parser.ts';
import { simpleAnalyzeQuery } from '../helpers/simple-analyzer.ts';

const parse = (q: string) => parseQuery(q, 'en', simpleAnalyzeQuery).clauses;

test('free words are optional clauses; stopwords are dropped', () => {
  assert.deepEqual(parse('Apple the Pie'), [
    { kind: 'word', occur: 'should', word: { text: 'Apple', terms: ['apple'], parts: [] } },
    { kind: 'word', occur: 'should', word: { text: 'Pie', terms: ['pie'], parts: [] } },
  ]);
});

test('+ and - mark required and excluded words; a lone sign is ignored', () => {
  const c = parse('+apple -pie + tart - x-ray');
  assert.deepEqual(
    c.map((x) => [x.kind, x.occur]),
    [
      ['word', 'must'],
      ['word', 'mustNot'],
      ['word', 'should'],
      ['word', 'should'],
      ['word', 'should'],
    ],
  );
  assert.deepEqual(
    c.map((x) => (x.kind === 'word' ? x.word.terms[0] : '')),
    ['apple', 'pie', 'tart', 'x', 'ray'],
  );
});

test('a sign before a digit belongs to the number; before a letter it stays an operator', () => {
  const c = parse('+1 nucleosome -2 -x2 +b3');
  assert.deepEqual(
    c.map((x) => [x.kind === 'word' ? x.word.terms[0] : '', x.occur]),
    [
      ['1', 'should'],
      ['nucleosome', 'should'],
      ['2', 'should'],
      ['x2', 'mustNot'],
      ['b3', 'must'],
    ],
  );
});

test('quoted phrases keep stopword gaps; an unterminated quote runs to the end', () => {
  assert.deepEqual(parse('"king of the hill" -"bad day'), [
    {
      kind: 'phrase',
      occur: 'should',
      text: 'king of the hill',
      slots: [
        { terms: ['king'], offset: 0 },
        { terms: ['hill'], offset: 3 },
      ],
    },
    {
      kind: 'phrase',
      occur: 'mustNot',
      text: 'bad day',
      slots: [
        { terms: ['bad'], offset: 0 },
        { terms: ['day'], offset: 1 },
      ],
    },
  ]);
});

test('a one-word phrase is a word; a stopword-only phrase vanishes', () => {
  assert.deepEqual(parse('"the apple" "of the"'), [
    { kind: 'word', occur: 'should', word: { text: 'apple', terms: ['apple'], parts: [] } },
  ]);
});

test('a required token analysed into several words becomes a required phrase', () => {
  const [c] = parse('+e-mail');
  assert.equal(c.kind, 'phrase');
  assert.equal(c.occur, 'must');
});

test('compound parts are carried for weaker optional clauses', () => {
  assert.deepEqual(parse('urlaubs+antrag')[0], {
    kind: 'word',
    occur: 'should',
    word: { text: 'urlaubs+antrag', terms: ['urlaubsantrag'], parts: ['urlaubs', 'antrag'] },
  });
});

test('tokenizer splits on unicode spaces and quotes', () => {
  assert.deepEqual(tokenizeQuery('a\u00a0"b c"d'), [
    { occur: 'should', text: 'a', quoted: false },
    { occur: 'should', text: 'b c', quoted: true },
    { occur: 'should', text: 'd', quoted: false },
  ]);
});

test('typographic quotation marks quote phrases like the ASCII quote (smart-quote keyboards, German „…“, full-width ＂…＂)', () => {
  const phrase = (text: string, occur = 'should') => ({
    kind: 'phrase',
    occur,
    text,
    slots: [
      { terms: ['art'], offset: 0 },
      { terms: ['war'], offset: 2 },
    ],
  });
  for (const [open, close] of [
    ['\u201c', '\u201d'],
    ['\u201e', '\u201c'],
    ['\u00ab', '\u00bb'],
    ['\u00bb', '\u00ab'],
    ['"', '\u201d'],
    ['\uff02', '\uff02'],
  ]) {
    assert.deepEqual(parse(`${open}art of war${close}`), [phrase('art of war')], `${open}…${close}`);
    assert.deepEqual(parse(`-${open}art of war${close} x`), [
      phrase('art of war', 'mustNot'),
      { kind: 'word', occur: 'should', word: { text: 'x', terms: ['x'], parts: [] } },
    ]);
  }
});

test('oversized queries fail with a typed error', () => {
  assert.throws(
    () => parseQuery('x'.repeat(9000), 'en', simpleAnalyzeQuery),
    (e: unknown) => e instanceof QueryError && e.code === 'query_too_long',
  );
  assert.throws(
    () =>
      parseQuery(Array.from({ length: 70 }, (_, i) => `w${i}`).join(' '), 'en', simpleAnalyzeQuery, { maxClauses: 64 }),
    (e: unknown) => e instanceof QueryError && e.code === 'too_many_clauses',
  );
  assert.deepEqual(parse('   '), []);
});
