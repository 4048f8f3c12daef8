/**
 * Phrases across the two analysis languages: a document is indexed in one language, whose
 * stopwords leave position gaps, while the query is analysed with a hint language. A phrase word
 * that is a stopword in either language must not be a required slot, or an English phrase typed
 * with the default German hint (or a German one with the English hint) can never match.
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
    doc('en', 'Strategy classics', 'The Art of War is an ancient military treatise still read by managers today.'),
    doc('de', 'Museen', 'Das Haus der Kunst ist ein Ausstellungsgebäude im Englischen Garten.', { language: 'de' }),
    doc('other', 'Notes', 'Modern art and the war on waste, a house of many rooms.'),
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

test('an English phrase with English stopwords finds the English document with either hint', () => {
  for (const lang of ['de', 'en'] as const) {
    assert.deepEqual(keys('"the treatise"', lang), ['en'], lang);
    assert.deepEqual(keys('"treatise still read by managers"', lang), ['en'], lang);
    assert.deepEqual(keys('"an ancient military treatise"', lang), ['en'], lang);
  }
  // "war" is a German stopword (a gap), so only "art" must match; the exact English reading ranks first.
  assert.ok(keys('"the art of war"', 'de').includes('en'));
  assert.equal(s.search({ query: '"the art of war"', language: 'en', limit: 10 }).hits[0]?.key, 'en');
});

test('a German phrase with German stopwords finds the German document with either hint', () => {
  for (const lang of ['de', 'en'] as const) {
    assert.deepEqual(keys('"Haus der Kunst"', lang), ['de'], lang);
    assert.deepEqual(keys('"ist ein Ausstellungsgebäude im Englischen Garten"', lang), ['de'], lang);
  }
});

test('required and excluded phrases follow the same rule', () => {
  assert.deepEqual(keys('+"Haus der Kunst" garten', 'en'), ['de']);
  assert.deepEqual(keys('treatise -"read by managers"', 'de'), []);
  // an excluded phrase is not narrowed to a single word ("art" alone would exclude "other" too)
  assert.deepEqual(keys('art -"art of war"', 'en'), ['other']);
});

test('a gap keeps the phrase positional: the words around it must still stand at their distance', () => {
  const [c] = parseQuery('"house of many rooms"', 'de', analyzeQuery).clauses;
  assert.equal(c.kind, 'phrase');
  if (c.kind !== 'phrase') return;
  assert.deepEqual(
    c.slots.map((x) => x.offset),
    [0, 2, 3],
  );
  assert.deepEqual(keys('"house of many rooms"', 'de'), ['other']);
  assert.deepEqual(keys('"house of rooms"', 'de'), []);
});

test('a phrase of words that are all stopwords somewhere still matches where they are indexed', () => {
  // "to be or not" holds only English stopwords; a German-indexed text keeps them as terms.
  index.writer.add({
    key: 'quote',
    language: 'de',
    text: { title: 'Zitat', body: 'Hamlet sagt: to be or not to be, und schweigt.' },
  });
  return index.writer.commit().then(() => {
    const fresh = index.reader.searcher();
    try {
      assert.deepEqual(
        fresh.search({ query: '"to be or not"', language: 'de', limit: 10 }).hits.map((h) => h.key),
        ['quote'],
      );
    } finally {
      index.reader.release(fresh);
    }
  });
});
