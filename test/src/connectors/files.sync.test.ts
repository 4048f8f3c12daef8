/**
 * The files connector end to end: a folder tree in a temporary directory becomes documents
 * (title, breadcrumb, path_preview from the URL template, last_modified from the mtime, the
 * `fileshares` category); later runs send only what changed, read and extract nothing that did
 * not, and delete what is gone from the folder.
 */
import assert from 'node:assert/strict';
import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, tempDir, writeTree, type ConnectorHarness } from '../../support/connectors.ts';

let h: ConnectorHarness;
let root: string;
let id: string;
const T0 = 1_767_225_600; // 2026-01-01T00:00:00Z

before(async () => {
  h = await connectorHarness();
  root = await tempDir('files-root-');
  await writeTree(
    root,
    {
      'handbook.md': '# Handbook\n\nEmployees book trains for trips under 500 km.',
      'hr/leave policy.txt': 'Annual leave is 30 days.',
      'hr/payroll/2026.csv': 'month,amount\njan,100\n',
      'it/setup.txt': 'Install the VPN client first.',
    },
    T0,
  );
  const c = await h.create({
    name: 'Shared drive',
    type: 'fileshares',
    datasource: 'shared_drive',
    settings: { root, url_template: 'https://files.example.com/view/{path}', breadcrumb: 'S' },
  });
  id = c.id;
});
after(async () => {
  await h.close();
  await rm(root, { recursive: true, force: true });
});

describe('files connector', () => {
  it('indexes every file with its breadcrumb, preview URL, mtime and category', async () => {
    const run = await h.run(id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.deepEqual(run.counts, { unchanged: 0, sent: 4, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 });
    assert.deepEqual(run.progress, { done: 4, total: 4 });
    const doc = h.doc('shared_drive', 'hr/leave policy.txt');
    assert.ok(doc, 'the file is in the index');
    assert.equal(doc.stored.title, 'leave policy.txt');
    assert.equal(doc.stored.path, 'S/hr/leave policy.txt');
    assert.equal(doc.stored.path_preview, 'https://files.example.com/view/hr/leave%20policy.txt');
    assert.equal(doc.stored.last_modified, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(doc.keywords.category, ['fileshares']);
    assert.deepEqual(doc.keywords.acl, ['shared_drive|*']);
    assert.equal(h.ids('shared_drive').length, 4);
    assert.equal(h.extracted.length, 4, 'each file went through the extractors');
    const status = (await h.admin('GET', `/connectors/${id}/status`)).body;
    assert.equal(status.state, 'idle');
    assert.equal(status.last_run.run, 1);
    assert.equal(status.last_success_at, run.finished_at);
  });

  it('a second run sends nothing and extracts nothing', async () => {
    h.extracted.length = 0;
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    assert.deepEqual(run.counts, { unchanged: 4, sent: 0, already_indexed: 0, skipped: 0, failed: 0, deleted: 0 });
    assert.deepEqual(h.extracted, []);
  });

  it('sends a changed file, adds a new one and deletes a removed one', async () => {
    h.extracted.length = 0;
    await writeFile(join(root, 'it/setup.txt'), 'Install the VPN client and the proxy certificate.');
    await utimes(join(root, 'it/setup.txt'), T0 + 60, T0 + 60);
    await writeTree(root, { 'it/new.txt': 'A new page about printers.' }, T0 + 120);
    await rm(join(root, 'hr/payroll/2026.csv'));
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    assert.deepEqual(run.counts, { unchanged: 2, sent: 2, already_indexed: 0, skipped: 0, failed: 0, deleted: 1 });
    assert.deepEqual(h.extracted.sort(), ['new.txt', 'setup.txt']);
    assert.equal(h.doc('shared_drive', 'hr/payroll/2026.csv'), undefined, 'the removed file is gone');
    assert.equal(h.doc('shared_drive', 'it/setup.txt')?.stored.last_modified, '2026-01-01T00:01:00.000Z');
    assert.equal(h.ids('shared_drive').length, 4);
  });

  it('is found by the fileshares category in search', async () => {
    const sa = await h.admin('POST', '/service-accounts', { name: 'setup' });
    const key = sa.body.key;
    await h.call('POST', '/api/indexing/users', key, {
      datasource: 'shared_drive',
      user: { email: 'ann@example.com' },
    });
    await h.admin('POST', '/accounts', { email: 'ann@example.com' });
    const pk = (await h.admin('POST', '/accounts/ann@example.com/keys', {})).body.key;
    const found = await h.call('GET', '/api/beta/search?query=printers&data_source=fileshares', pk);
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.results.map((r: any) => [r.title, r.data_source, r.parent_path]),
      [['new.txt', 'shared_drive', 'S/it']],
    );
    const other = await h.call('GET', '/api/beta/search?query=printers&data_source=other', pk);
    assert.deepEqual(other.body.results, []);
    const changed = await h.call('GET', '/api/beta/search?query=%22proxy%20certificate%22', pk);
    assert.deepEqual(
      changed.body.results.map((r: any) => r.title),
      ['setup.txt'],
      'the changed content is indexed',
    );
  });
});
