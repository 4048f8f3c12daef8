/**
 * Spec conformance (Indexing API: datasources; Errors: 500 only for unhandled
 * server errors): object definitions keep the fields the spec leaves open as
 * sent, so a deeply nested open field must either be rejected as bad input
 * (422) or be stored in a form every later read can answer. Today it is
 * accepted and persisted, the create answers 500, and from then on
 * GET /datasources and GET /datasources/{name} answer 500 for every caller
 * (also after a restart) until the datasource is deleted.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;
before(async () => {
  h = await docsHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
});
after(() => h.close());

test('a deeply nested open field of an object definition never breaks the datasource reads', async () => {
  const depth = 3000;
  const body = `{"name":"deep","display_name":"Deep","object_definitions":[{"name":"page","extra":${'['.repeat(depth)}${']'.repeat(depth)},"property_definitions":[]}]}`;
  const created = await h.api('POST', '/datasources', body);
  const list = await h.api('GET', '/datasources');
  assert.equal(list.status, 200, `GET /datasources answered ${list.status} (the create answered ${created.status})`);
  assert.ok(created.status === 200 || created.status === 422, `create answered ${created.status}`);
  assert.ok(list.body.datasources.some((d: { name: string }) => d.name === 'wiki'));
  if (created.status === 200) assert.equal((await h.api('GET', '/datasources/deep')).status, 200);
});
