/**
 * GET /api/admin/stats: documents, pending, skipped and failed per datasource (with the messages),
 * the queue, the last commit, the index, the disk, version and uptime; administrators only.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
let h: DocsHarness;

before(async () => {
  h = await docsHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  await h.api('POST', '/datasources', { name: 'crm', display_name: 'CRM' });
});
after(() => h.close());

const stats = async () => {
  const r = await h.call('GET', '/api/admin/stats', MASTER);
  assert.equal(r.status, 200);
  return r.body;
};
const row = (body: any, name: string) => body.datasources.find((d: { name: string }) => d.name === name);

test('pushed documents count as pending until the commit, then as documents of their datasource', async () => {
  await h.api('POST', '/documents', {
    documents: [doc({ id: 'a' }), doc({ id: 'b' }), doc({ id: 'c', datasource: 'crm' })],
  });
  await h.documents.pipeline.drained();
  const before = await stats();
  assert.deepEqual(row(before, 'wiki'), {
    name: 'wiki',
    display_name: 'Wiki',
    documents: 0,
    pending: 2,
    skipped: 0,
    failed: 0,
  });
  assert.equal(before.operations.queued, 3);
  assert.equal(before.last_commit_at, null);
  await h.commit();
  const after = await stats();
  assert.deepEqual(row(after, 'wiki'), {
    name: 'wiki',
    display_name: 'Wiki',
    documents: 2,
    pending: 0,
    skipped: 0,
    failed: 0,
  });
  assert.equal(row(after, 'crm').documents, 1);
  assert.equal(after.operations.queued, 0);
  assert.equal(after.operations.committed_sequence, after.operations.last_sequence);
  assert.ok(Date.parse(after.last_commit_at) > Date.now() - 60_000);
  assert.equal(after.index.documents, 3);
  assert.ok(after.index.segments >= 1);
  assert.ok(after.index.size_bytes > 0);
});

test('skipped and failed documents are counted and listed with their messages, newest first', async () => {
  await h.api('POST', '/documents', { documents: doc({ id: 'long', title: 'notes.verylongextension' }) });
  const corrupt = { mime_type: 'application/pdf', binary_base64: Buffer.from('not a pdf').toString('base64') };
  await h.api('POST', '/documents', { documents: doc({ id: 'broken', file_type: 'file', body: corrupt }) });
  await h.commit();
  const body = await stats();
  assert.deepEqual([row(body, 'wiki').skipped, row(body, 'wiki').failed], [1, 1]);
  assert.equal(body.rejected_total, 2);
  const byId = Object.fromEntries(body.rejected.map((r: { document_id: string }) => [r.document_id, r]));
  assert.equal(byId.long.state, 'skipped');
  assert.match(byId.long.message, /verylongextension/);
  assert.equal(byId.broken.state, 'failed');
  assert.match(byId.broken.message, /extraction or indexing failed/);
  assert.ok(body.rejected[0].received_at >= body.rejected[1].received_at);
});

test('a deleted document leaves the count at the next commit', async () => {
  await h.api('DELETE', '/documents/wiki/a');
  await h.commit();
  assert.equal(row(await stats(), 'wiki').documents, 1);
});

test('version, uptime and the data directory on disk', async () => {
  const body = await stats();
  assert.equal(body.version, pkg.version);
  assert.ok(body.uptime_seconds >= 0);
  assert.equal(body.disk.data_dir, h.dir);
  assert.ok(body.disk.used_bytes > 0, 'the queue files are on disk');
  assert.equal(body.disk.complete, true);
  assert.ok(body.disk.free_bytes > 0 && body.disk.total_bytes >= body.disk.free_bytes);
});

test('administrators only: no key 401, a person without the role 403, a service account 403', async () => {
  assert.equal((await h.call('GET', '/api/admin/stats', null)).status, 401);
  await h.call('POST', '/api/admin/accounts', MASTER, { email: 'dev@example.com', roles: ['developer'] });
  const key = (await h.call('POST', '/api/admin/accounts/dev@example.com/keys', MASTER, {})).body.key;
  assert.equal((await h.call('GET', '/api/admin/stats', key)).status, 403);
  assert.equal((await h.call('GET', '/api/admin/stats', h.key)).status, 403);
});
