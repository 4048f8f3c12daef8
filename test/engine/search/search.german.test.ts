/** German queries through the real analyzer: compounds found by their parts, parts as weaker clauses, umlaut folding. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexOf } from '../helpers/index-fixture.ts';

const de = (key: string, title: string, body: string) => ({ key, language: 'de' as const, text: { title, body } });

test('a compound is found by its parts, and the whole compound ranks above its parts', async () => {
  const index = await indexOf([
    de('whole', 'Formulare', 'Der Urlaubsantrag wurde gestern genehmigt.'),
    de('parts', 'Personal', 'Ein Antrag auf Urlaub muss zwei Wochen vorher gestellt werden.'),
    de('other', 'Kantine', 'Heute gibt es Suppe und Brot.'),
  ]);
  const s = index.reader.searcher();
  assert.deepEqual(
    s
      .search({ query: 'Antrag', limit: 10 })
      .hits.map((h) => h.key)
      .sort(),
    ['parts', 'whole'],
  );
  assert.deepEqual(
    s
      .search({ query: 'Urlaub', limit: 10 })
      .hits.map((h) => h.key)
      .sort(),
    ['parts', 'whole'],
  );
  assert.deepEqual(
    s.search({ query: 'Urlaubsantrag', limit: 10 }).hits.map((h) => h.key),
    ['whole', 'parts'],
  );
  await index.close();
});

test('case and inflection of German words are folded the same way at index and query time', async () => {
  const index = await indexOf([de('h', 'Häuser', 'Die Häuser am Fluss sind groß.'), de('x', 'Weg', 'Ein langer Weg.')]);
  const s = index.reader.searcher();
  for (const q of ['Häuser', 'HÄUSER', 'Haus'])
    assert.deepEqual(
      s.search({ query: q, limit: 5 }).hits.map((h) => h.key),
      ['h'],
      q,
    );
  await index.close();
});
