/**
 * `enterprise-search reindex` on a stopped server's data directory: every document comes back
 * rebuilt (a new index generation, the same documents per datasource), with the progress summary
 * on stderr and the count on stdout; `stats` reports the same figures as the admin API.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { runCli } from '../../support/cli-process.ts';
import { startServer, type ServerProcess } from '../../support/server-process.ts';
import { tempDir } from '../../support/tmp.ts';

const ADMIN_KEY = 'reindex-master-key-0123456789';
const running: ServerProcess[] = [];
after(() => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

async function call(port: number, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status}`);
  return (await res.json()) as any;
}

const doc = (id: number) => ({
  datasource: 'handbook',
  id: `page-${id}`,
  title: `Page ${id}`,
  file_type: 'wiki',
  body: { mime_type: 'text/plain', text_content: `Reindexed text number ${id}.` },
});

test('reindex rebuilds every stored document; stats reads the stopped data directory', async () => {
  const env = { DATA_DIR: await tempDir('cli-reindex-'), ADMIN_KEY };
  const server = startServer(env);
  running.push(server);
  const port = await server.port();
  const sa = await call(port, 'POST', '/api/admin/service-accounts', ADMIN_KEY, { name: 'pusher' });
  await call(port, 'POST', '/api/indexing/datasources', sa.key, { name: 'handbook', display_name: 'Handbook' });
  const docs = Array.from({ length: 120 }, (_, i) => doc(i));
  await call(port, 'POST', '/api/indexing/documents?wait=true', sa.key, { documents: docs });
  await call(port, 'DELETE', '/api/indexing/documents/handbook/page-7', sa.key);
  const opened = await server.logLine('search engine open');
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);

  const stats = await runCli(['stats'], env);
  assert.equal(stats.code, 0, stats.stderr);
  const before = JSON.parse(stats.stdout);
  assert.equal(before.datasources[0].documents, 119);

  const reindex = await runCli(['reindex'], env);
  assert.equal(reindex.code, 0, reindex.stderr);
  assert.deepEqual(JSON.parse(reindex.stdout), { documents: 119 });
  assert.match(reindex.stderr, /reindex: 119 documents in \d+:\d\d/);

  const again = startServer(env);
  running.push(again);
  const reopened = await again.logLine('search engine open');
  assert.equal(reopened.docCount, 119);
  assert.ok(reopened.generation > opened.generation + 1, 'a new commit holds the rebuilt segments');
  const port2 = await again.port();
  const after = await call(port2, 'GET', '/api/admin/stats', ADMIN_KEY);
  assert.deepEqual(after.datasources, before.datasources);
  again.child.kill('SIGTERM');
  assert.equal(await again.exited, 0);
});
