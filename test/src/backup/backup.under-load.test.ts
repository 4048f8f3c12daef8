/**
 * An online backup of the real server, taken through the admin API while documents are pushed
 * continuously and restored with the CLI into a fresh DATA_DIR: the restored server holds every
 * document whose push was acknowledged before the backup began (its status is `indexed`).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../support/cli-process.ts';
import { startServer, type ServerProcess } from '../../support/server-process.ts';
import { tempDir } from '../../support/tmp.ts';
import { waitFor } from '../../support/wait.ts';

const ADMIN_KEY = 'backup-master-key-0123456789';
const running: ServerProcess[] = [];
after(() => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

function start(env: Record<string, string>): ServerProcess {
  const s = startServer({ ADMIN_KEY, ...env });
  running.push(s);
  return s;
}

async function call(port: number, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

const doc = (id: string) => ({
  datasource: 'handbook',
  id,
  title: `Page ${id}`,
  file_type: 'wiki',
  body: { mime_type: 'text/plain', text_content: `The text of page ${id}, pushed under load.` },
});

test('a backup under push load, restored into a fresh DATA_DIR, holds every document acknowledged before it began', async () => {
  const root = await tempDir('backup-load-');
  const dataDir = join(root, 'data');
  const backupDir = join(root, 'backups');
  const server = start({ DATA_DIR: dataDir, BACKUP_DIR: backupDir, COMMIT_INTERVAL_MS: '300' });
  const port = await server.port();
  const sa = (await call(port, 'POST', '/api/admin/service-accounts', ADMIN_KEY, { name: 'pusher' })).json;
  await call(port, 'POST', '/api/indexing/datasources', sa.key, { name: 'handbook', display_name: 'Handbook' });
  // Committed before the load: the backup's index part holds these for certain.
  const first = Array.from({ length: 50 }, (_, i) => doc(`pre-${i}`));
  const pre = await call(port, 'POST', '/api/indexing/documents?wait=true', sa.key, { documents: first });
  assert.equal(pre.json.committed, true, JSON.stringify(pre.json));

  const acknowledged: { id: string; at: number }[] = first.map((d) => ({ id: d.id, at: 0 }));
  let stop = false;
  let next = 0;
  const pusher = async (who: number) => {
    while (!stop) {
      const batch = Array.from({ length: 20 }, () => doc(`p${who}-${next++}`));
      const res = await call(port, 'POST', '/api/indexing/documents', sa.key, { documents: batch });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const at = performance.now();
      for (const d of batch) acknowledged.push({ id: d.id, at });
    }
  };
  const pushers = [pusher(1), pusher(2)];
  await waitFor(() => acknowledged.length >= 300, 'pushes acknowledged before the backup', 60_000);
  const began = performance.now();
  const backup = await call(port, 'POST', '/api/admin/backups', ADMIN_KEY, { name: 'under-load' });
  stop = true;
  await Promise.all(pushers);
  assert.equal(backup.status, 201, JSON.stringify(backup.json));
  assert.equal(backup.json.name, 'under-load');
  assert.ok(backup.json.index.documents >= first.length, JSON.stringify(backup.json.index));
  const before = acknowledged.filter((a) => a.at < began).map((a) => a.id);

  // The backup's name is a single path segment; paths and a second backup of the same name are refused.
  assert.equal((await call(port, 'POST', '/api/admin/backups', ADMIN_KEY, { name: '../elsewhere' })).status, 422);
  assert.equal((await call(port, 'POST', '/api/admin/backups', ADMIN_KEY, { name: 'under-load' })).status, 409);
  server.child.kill('SIGKILL');
  await server.exited;

  const restored = join(root, 'restored');
  const restore = await runCli(['restore', join(backupDir, 'under-load')], { DATA_DIR: restored });
  assert.equal(restore.code, 0, restore.stderr);
  const again = start({ DATA_DIR: restored, COMMIT_INTERVAL_MS: '100' });
  const port2 = await again.port();
  const missing: string[] = [];
  for (const id of before) {
    const status = await call(port2, 'GET', `/api/indexing/documents/handbook/${id}`, sa.key);
    if (status.status !== 200 || !['indexed', 'queued'].includes(status.json.state)) missing.push(id);
  }
  assert.deepEqual(missing, [], `${missing.length} of ${before.length} acknowledged documents missing`);
  // Queued ones are replayed and committed: every one ends up indexed and searchable.
  const last = before[before.length - 1];
  let state = '';
  for (let i = 0; i < 200 && state !== 'indexed'; i++) {
    state = (await call(port2, 'GET', `/api/indexing/documents/handbook/${last}`, sa.key)).json.state;
    if (state !== 'indexed') await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(state, 'indexed');
});
