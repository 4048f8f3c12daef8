/**
 * A query whose every word is a stopword of its hint language (the default German hint and an
 * English user typing "war", "will" or "die") is read in the other analysis language instead of
 * matching nothing; a query with at least one content word keeps its hint language.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Index, Searcher } from '../../../engine/index.ts';
import { parseQuery } from '../../../engine/query/parser.ts';
import { analyzeQuery } from '../../../engine/analysis/index.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';

let index: Index;
let s: Searcher;

before(async () => {
  index = await indexOf([
    doc('war', 'History notes', 'The war ended in a treaty that nobody liked.'),
    doc('will', 'Estate planning', 'Write a will before the trip.'),
    doc('kunst', 'Museen', 'Das Haus der Kunst ist ein Ausstellungsgebäude.', { language: 'de' }),
  ]);
  s = index.reader.searcher();
});
after(async () => {
  index.reader.release(s);
  await index.close();
});

const keys = (query: string, language: 'de' | 'en') =>
  s
    .search({ query, language, limit: 10 })
    .hits.map((h) => h.key)
    .sort();

test('a query of German stopwords only is read in English with the default German hint', () => {
  assert.deepEqual(keys('war', 'de'), ['war']);
  assert.deepEqual(keys('Will', 'de'), ['will']);
  assert.deepEqual(keys('war will', 'de'), ['war', 'will']);
  const parsed = parseQuery('war', 'de', analyzeQuery);
  assert.equal(parsed.clauses.length, 1);
  assert.equal(parsed.language, 'en', 'the query is read in the other language');
});

test('a query of English stopwords only is read in German with the English hint', () => {
  assert.deepEqual(keys('Haus der', 'en'), ['kunst'], 'a content word keeps the hint language');
  const parsed = parseQuery('der', 'en', analyzeQuery);
  assert.equal(parsed.language, 'en', '"der" is no English stopword: no fallback');
  assert.equal(
    parseQuery('in an', 'en', analyzeQuery).clauses.length,
    0,
    'stopwords of both languages still match nothing',
  );
  assert.equal(parseQuery('in an', 'de', analyzeQuery).clauses.length, 0);
});

test('a query with one content word keeps its hint language: its stopwords stay dropped', () => {
  const parsed = parseQuery('war Kunst', 'de', analyzeQuery);
  assert.equal(parsed.language, 'de');
  assert.deepEqual(keys('war Kunst', 'de'), ['kunst']);
});

test('only excluded stopwords do not switch the language (a query of exclusions matches nothing)', () => {
  assert.equal(parseQuery('-war', 'de', analyzeQuery).clauses.length, 0);
});
