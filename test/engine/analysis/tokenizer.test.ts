/**
 * Tokenizer behaviour through analyze(): UTF-16 offsets, scripts, technical
 * compounds kept whole next to their parts, apostrophes, ideographs, limits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, tokenize } from '../../../engine/analysis/index.ts';
import type { Token } from '../../../engine/analysis/index.ts';

function surface(text: string, t: Token): string {
  return text.slice(t.start, t.end);
}

test('offsets point at the source words, positions count words', () => {
  const text = '  Hello,\tWorld!  Numbers 42 and x9';
  const toks = analyze(text, 'en');
  assert.deepEqual(
    toks.map((t) => [t.term, surface(text, t), t.position]),
    [
      ['hello', 'Hello', 0],
      ['world', 'World', 1],
      ['number', 'Numbers', 2],
      ['42', '42', 3],
      ['x9', 'x9', 5],
      ['x', 'x9', 5],
      ['9', 'x9', 5],
    ],
  );
});

test('letters, digits and marks of every script form words; offsets are UTF-16', () => {
  const text = 'Ωμέγα ελληνικά — Привет мир · हिन्दी 😀 𝐀b naïve';
  const toks = analyze(text, 'en');
  for (const t of toks) assert.ok(t.end > t.start && t.start >= 0 && t.end <= text.length);
  const words = toks.map((t) => surface(text, t));
  assert.deepEqual(words, ['Ωμέγα', 'ελληνικά', 'Привет', 'мир', 'हिन्दी', '𝐀b', 'naïve']);
  assert.equal(toks[0].term, 'ωμέγα', 'case folded');
  assert.equal(toks[2].term, 'привет');
  assert.equal(toks[6].term, 'naiv', 'diacritics folded, then stemmed');
});

test('ideographs are one-character words', () => {
  const text = '東京は日本';
  const toks = analyze(text, 'en');
  assert.deepEqual(
    toks.map((t) => [t.term, t.start, t.position]),
    [
      ['東', 0, 0],
      ['京', 1, 1],
      ['は', 2, 2],
      ['日', 3, 3],
      ['本', 4, 4],
    ],
  );
});

test("technical compounds are kept whole at the first part's position, parts follow", () => {
  const text = 'see foo-bar.baz and config_file.ts v1.2.3 now';
  const toks = analyze(text, 'en');
  const rows = toks.map((t) => [t.term, t.position, surface(text, t)]);
  assert.deepEqual(rows, [
    ['see', 0, 'see'],
    ['foo-bar.baz', 1, 'foo-bar.baz'],
    ['foo', 1, 'foo'],
    ['bar', 2, 'bar'],
    ['baz', 3, 'baz'],
    ['config_file.ts', 5, 'config_file.ts'],
    ['config', 5, 'config'],
    ['file', 6, 'file'],
    ['ts', 7, 'ts'],
    ['v1.2.3', 8, 'v1.2.3'],
    ['v1', 8, 'v1'],
    ['v', 8, 'v1'],
    ['1', 8, 'v1'],
    ['2', 9, '2'],
    ['3', 10, '3'],
    ['now', 11, 'now'],
  ]);
});

test('a joiner not between word characters separates words', () => {
  const text = 'end. Next -dash_ trailing- .dot';
  const toks = analyze(text, 'en');
  assert.deepEqual(
    toks.map((t) => t.term),
    ['end', 'next', 'dash', 'trail', 'dot'],
  );
});

test('apostrophes inside words stay, typographic ones are normalised', () => {
  const text = "O'Reilly’s don’t 'quoted'";
  const toks = analyze(text, 'en');
  assert.deepEqual(
    toks.map((t) => surface(text, t)),
    ["O'Reilly’s", 'quoted'],
  );
  assert.equal(toks[0].term, "o'reilli");
});

test('words longer than the limit only take a position', () => {
  const text = `a${'x'.repeat(200)} tail`;
  const toks = analyze(text, 'en');
  assert.deepEqual(
    toks.map((t) => [t.term, t.position]),
    [['tail', 1]],
  );
});

test('tokenize reports compounds before their parts', () => {
  const events: string[] = [];
  tokenize('a-b c', {
    compound(s, e, n) {
      events.push(`C${s}-${e}/${n}`);
    },
    word(s, e) {
      events.push(`W${s}-${e}`);
    },
  });
  assert.deepEqual(events, ['C0-3/2', 'W0-1', 'W2-3', 'W4-5']);
});

test('empty and separator-only text give no tokens', () => {
  assert.deepEqual(analyze('', 'de'), []);
  assert.deepEqual(analyze(' \n\t.,;-_ ', 'de'), []);
});

test('arbitrary code units (lone surrogates, controls) never break offsets or positions', () => {
  let seed = 12345;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const alphabet = [
    'a',
    'Z',
    '9',
    ' ',
    '-',
    '.',
    '_',
    "'",
    '\u2019',
    'ä',
    'ß',
    '東',
    '\ud83d',
    '\ude00',
    '\u0301',
    '\0',
    '\n',
    'İ',
  ];
  for (let round = 0; round < 300; round++) {
    let text = '';
    const len = rnd(40);
    for (let i = 0; i < len; i++) text += alphabet[rnd(alphabet.length)];
    for (const lang of ['de', 'en'] as const) {
      let last = -1;
      for (const t of analyze(text, lang)) {
        assert.ok(t.start >= 0 && t.start < t.end && t.end <= text.length, JSON.stringify(text));
        assert.ok(t.position >= last);
        assert.ok(t.term.length > 0);
        last = t.position;
      }
    }
  }
  // a lone high surrogate does not swallow the following letter
  assert.deepEqual(
    analyze('\ud800x', 'en').map((t) => t.term),
    ['x'],
  );
});

test('a sink may tokenize other text from inside its callbacks', () => {
  const outer: string[] = [];
  const inner: string[] = [];
  const text = 'a-b-c d';
  tokenize(text, {
    compound() {},
    word(s, e) {
      outer.push(text.slice(s, e));
      tokenize('x-y z', {
        compound() {},
        word(s2, e2) {
          inner.push(`${s2}-${e2}`);
        },
      });
    },
  });
  assert.deepEqual(outer, ['a', 'b', 'c', 'd']);
  assert.equal(inner.length, 12);
});
