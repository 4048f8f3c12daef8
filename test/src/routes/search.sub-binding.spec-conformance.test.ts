/**
 * Spec conformance (States and transitions, other rows: "Deleting a sub
 * removes its children too; documents that referenced it stay in the index
 * but lose the sub-level filter binding until re-indexed with a valid
 * reference"): re-creating a sub with the same key does not re-index the
 * documents, so they must stay unbound until they are pushed again. Today
 * the binding is decided at read time from the current sub tree, so the
 * documents silently regain `data_source_sub` as soon as the key exists again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
before(async () => {
  h = await searchHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki', subs: [{ name: 'Top' }] });
  await h.register('wiki', 'ann@x.org');
  await h.push([{ datasource: 'wiki', id: 'd1', title: 'Gnu handbook', file_type: 'wiki', data_source_sub: 'top' }]);
  await h.commit();
});
after(() => h.close());

const subOf = async () => {
  const r = await h.search({ email: 'ann@x.org' }, { query: 'gnu' });
  assert.equal(r.status, 200);
  assert.equal(r.body.results.length, 1);
  return r.body.results[0].data_source_sub as string;
};

test('a document loses its sub binding on sub deletion and does not regain it without re-indexing', async () => {
  assert.equal(await subOf(), 'wiki__top');
  assert.equal((await h.api('DELETE', '/datasources/wiki/subs/top')).status, 200);
  await h.commit();
  assert.equal(await subOf(), '', 'binding lost after the delete');
  assert.equal((await h.api('POST', '/datasources/wiki/subs', { name: 'Top' })).status, 200);
  await h.commit();
  assert.equal(await subOf(), '', 'no re-index happened, so the document must still be unbound');
});
