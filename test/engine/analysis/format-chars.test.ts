/**
 * Invisible format characters inside a word (soft hyphen U+00AD, zero-width joiner and
 * non-joiner, word joiner, BOM, bidi marks) do not split it and are not part of its term, as in
 * UAX #29 (WB4) with default-ignorable folding: text pushed as `text_content` or as a title keeps
 * them (only extracted binaries are cleaned), so "infor\u00ADmation" must still be "information".
 * The zero-width space U+200B is a word break on purpose and stays one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, analyzeQuery } from '../../../engine/analysis/index.ts';
import type { Language } from '../../../engine/analysis/index.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';

const terms = (text: string, lang: Language) => analyze(text, lang).map((t) => t.term);

const PAIRS: [string, string][] = [
  ['infor\u00admation manage\u00adment', 'information management'],
  ['Urlaubs\u00adantrag Donau\u00addampf\u00adschiff\u00adfahrt', 'Urlaubsantrag Donaudampfschifffahrt'],
  ['wo\u2060rd ke\u200dy co\u200cde by\ufeffte ri\u200fght', 'word key code byte right'],
];

test('format characters inside a word leave one word with the plain term, in both languages', () => {
  for (const lang of ['de', 'en'] as const) {
    for (const [odd, plain] of PAIRS) assert.deepEqual(terms(odd, lang), terms(plain, lang), `${lang}: ${odd}`);
  }
});

test('query words are read the same way', () => {
  for (const [odd, plain] of PAIRS) {
    assert.deepEqual(
      analyzeQuery(odd, 'en').map((w) => w.terms),
      analyzeQuery(plain, 'en').map((w) => w.terms),
      odd,
    );
  }
});

test('offsets cover the word as written; format characters at its edges stay outside', () => {
  const text = '\u00adinfor\u00admation\u00ad desk\u200d';
  assert.deepEqual(
    analyze(text, 'en').map((t) => text.slice(t.start, t.end)),
    ['infor\u00admation', 'desk'],
  );
});

test('the zero-width space still separates words', () => {
  assert.deepEqual(terms('alpha\u200bbeta', 'en'), ['alpha', 'beta']);
});

test('a search for the plain word finds and highlights the word with a soft hyphen', async () => {
  const index = await indexOf([
    doc('shy', 'Desk', 'The infor\u00admation desk opens at nine.'),
    doc('other', 'Other', 'Nothing to see here.'),
  ]);
  const s = index.reader.searcher();
  try {
    const hits = s.search({ query: 'information', language: 'en', limit: 5 }).hits;
    assert.deepEqual(
      hits.map((h) => h.key),
      ['shy'],
    );
    const [p] = s.highlight(hits[0], 'information', { language: 'en' });
    assert.deepEqual(
      p.ranges.map(([a, b]) => p.text.slice(a, b)),
      ['infor\u00admation'],
    );
  } finally {
    index.reader.release(s);
    await index.close();
  }
});
