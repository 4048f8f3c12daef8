/**
 * `text_content` sent with an HTML `mime_type` is indexed as the visible text of the markup, as an
 * extracted HTML file is: tags, attribute values and script content are not searchable and do not appear
 * in summaries, character references are decoded. `text/plain` text stays as it was sent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
const ann = { email: 'ann@example.com' };
const MARKUP =
  '<html><head><meta charset="iso-8859-1"><style>.zebracorn{}</style></head><body>' +
  '<div class="zebracorn"><script>var hidden = "quokka";</script>' +
  '<p>Penguins &amp; puffins nest on cliffs &ndash; caf&eacute; &hellip;</p></div></body></html>';

const doc = (id: string, mime_type: string) => ({
  datasource: 'wiki',
  id,
  title: `Seabirds ${id}`,
  file_type: 'wiki',
  last_modified: '2026-01-01T00:00:00Z',
  body: { mime_type, text_content: MARKUP },
});

before(async () => {
  h = await searchHarness();
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  await h.register('wiki', ann.email);
  await h.push([
    doc('html', 'text/html'),
    doc('xhtml', 'application/xhtml+xml; charset=utf-8'),
    doc('plain', 'text/plain'),
  ]);
  await h.commit();
});
after(() => h.close());

const ids = async (query: string) => {
  const r = await h.search(ann, { query, count: 10 });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.results as { id: string; summary: string }[]).map((x) => x.id).sort();
};

test('the visible text of HTML text_content is searchable, its markup is not', async () => {
  assert.deepEqual(await ids('puffins'), ['wiki:html', 'wiki:plain', 'wiki:xhtml']);
  assert.deepEqual(await ids('zebracorn'), ['wiki:plain'], 'a class name is markup');
  assert.deepEqual(await ids('quokka'), ['wiki:plain'], 'script content is not text');
});

test('summaries of HTML text_content show decoded text without tags', async () => {
  const r = await h.search(ann, { query: 'puffins cliffs', count: 10 });
  const summary = (id: string) =>
    (r.body.results as { id: string; summary: string }[]).find((x) => x.id === id)!.summary;
  for (const id of ['wiki:html', 'wiki:xhtml']) {
    const text = summary(id).replace(/<\/?em>/g, '');
    assert.doesNotMatch(text, /<|&lt;|&amp;|zebracorn/, text);
    assert.match(text, /Penguins & puffins nest on cliffs \u2013 caf\u00e9 \u2026/, text);
  }
  assert.match(
    summary('wiki:plain').replace(/<\/?em>/g, ''),
    /<p>Penguins &amp; puffins/,
    'plain text keeps what was sent',
  );
});
