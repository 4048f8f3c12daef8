/**
 * Sub binding by incarnation (README, Search): a document keeps its
 * `data_source_sub` / `data_source_sub_sub` only while the sub it was indexed
 * with exists; a sub deleted and created again under the same key binds only
 * documents indexed after that. Subs and documents from before incarnation
 * ids existed (neither has one) stay bound, and re-indexing re-binds.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commitIndexing } from '../../../src/controlplane/events.ts';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
before(async () => {
  h = await searchHarness();
  await h.api('POST', '/datasources', {
    name: 'wiki',
    display_name: 'Wiki',
    subs: [{ name: 'Top' }, { name: 'Kid', parent_key: 'top' }],
  });
  await h.register('wiki', 'ann@x.org');
});
after(() => h.close());

const subsOf = async (query: string) => {
  const r = await h.search({ email: 'ann@x.org' }, { query });
  assert.equal(r.status, 200);
  assert.equal(r.body.results.length, 1);
  return [r.body.results[0].data_source_sub, r.body.results[0].data_source_sub_sub];
};

test('a re-created child sub does not re-bind; the parent binding stays; a re-index re-binds', async () => {
  const doc = {
    datasource: 'wiki',
    id: 'k1',
    title: 'Kestrel notes',
    file_type: 'wiki',
    data_source_sub: 'top',
    data_source_sub_sub: 'kid',
    last_modified: '2026-01-01',
  };
  await h.push([doc]);
  await h.commit();
  assert.deepEqual(await subsOf('kestrel'), ['wiki__top', 'wiki__top__kid']);
  assert.equal((await h.api('DELETE', '/datasources/wiki/subs/kid')).status, 200);
  assert.equal((await h.api('POST', '/datasources/wiki/subs', { name: 'Kid', parent_key: 'top' })).status, 200);
  await h.commit();
  assert.deepEqual(await subsOf('kestrel'), ['wiki__top', '']);
  await h.push([{ ...doc, last_modified: '2026-01-02' }]);
  await h.commit();
  assert.deepEqual(await subsOf('kestrel'), ['wiki__top', 'wiki__top__kid']);
});

test('a sub and a document from before incarnation ids are bound while the sub exists', async () => {
  await commitIndexing(h.services.state, {
    type: 'indexing.sub_added',
    datasource: 'wiki',
    sub: { key: 'legacy', name: 'Legacy' },
    at: new Date().toISOString(),
  });
  await h.push([
    { datasource: 'wiki', id: 'l1', title: 'Lemming notes', file_type: 'wiki', data_source_sub: 'legacy' },
  ]);
  await h.commit();
  assert.deepEqual(await subsOf('lemming'), ['wiki__legacy', '']);
  assert.equal((await h.api('DELETE', '/datasources/wiki/subs/legacy')).status, 200);
  assert.equal((await h.api('POST', '/datasources/wiki/subs', { name: 'Legacy' })).status, 200);
  await h.commit();
  assert.deepEqual(await subsOf('lemming'), ['', '']);
});
