/**
 * POST/GET /api/admin/backups: backups only under BACKUP_DIR (409 without it), a name and never
 * a path (422), no overwrite (409), administrators only; the backup restores (src/backup/restore.ts)
 * into a data directory whose index holds the committed documents and whose queue holds the rest.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FsDirectory, openIndex } from '../../../engine/index.ts';
import { restoreBackup } from '../../../src/backup/restore.ts';
import { DOCUMENT_SCHEMA } from '../../../src/documents/index-schema.ts';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { doc, docsHarness } from '../../support/documents.ts';
import { tempDir } from '../../support/tmp.ts';

async function harness(env: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'backup-route-'));
  const h = await docsHarness({ dir, env, directory: await FsDirectory.open(join(dir, 'index')) });
  after(() => h.close(true));
  return h;
}

test('without BACKUP_DIR the endpoint is refused with 409; only administrators may call it', async () => {
  const h = await harness({});
  const r = await h.call('POST', '/api/admin/backups', MASTER, {});
  assert.equal(r.status, 409);
  assert.match(r.body.detail, /BACKUP_DIR/);
  assert.equal((await h.call('POST', '/api/admin/backups', h.key, {})).status, 403);
});

test('a backup under BACKUP_DIR: named, listed, never overwritten, restorable', async () => {
  const root = await tempDir('backup-root-');
  const h = await harness({ BACKUP_DIR: root });
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  await h.api('POST', '/documents', { documents: [doc({ id: 'a' }), doc({ id: 'b' })] });
  await h.commit();
  await h.api('POST', '/documents', { documents: [doc({ id: 'c' })] });
  const r = await h.call('POST', '/api/admin/backups', MASTER, { name: 'first' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.name, 'first');
  assert.equal(r.body.path, join(root, 'first'));
  assert.equal(r.body.index.documents, 2);
  assert.ok(r.body.queue.bytes > 0, 'the uncommitted push is in the backup queue');
  assert.equal((await h.call('POST', '/api/admin/backups', MASTER, { name: 'first' })).status, 409);
  for (const name of ['../up', 'a/b', '.hidden', '']) {
    assert.equal((await h.call('POST', '/api/admin/backups', MASTER, { name })).status, 422, name);
  }
  await mkdir(join(root, 'not-a-backup'));
  await writeFile(join(root, 'not-a-backup', 'x'), 'x');
  const list = await h.call('GET', '/api/admin/backups', MASTER);
  assert.deepEqual(
    list.body.backups.map((b: { name: string }) => b.name),
    ['first'],
  );

  const restored = await tempDir('backup-restored-');
  await restoreBackup(join(root, 'first'), restored);
  const index = await openIndex({
    directory: await FsDirectory.open(join(restored, 'index')),
    schema: DOCUMENT_SCHEMA,
  });
  assert.equal(index.reader.searcher().numDocs, 2);
  await index.close();
  await assert.rejects(restoreBackup(join(root, 'first'), restored), /not empty/);
  await assert.rejects(restoreBackup(join(root, 'not-a-backup'), await tempDir('r-')), /not a complete backup/);
});
