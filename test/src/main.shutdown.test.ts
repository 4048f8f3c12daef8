/**
 * Stopping the real server process: on SIGTERM it stops accepting at once,
 * closes an idle keep-alive connection, finishes the request in flight and
 * then closes that keep-alive connection too, drains the indexing queue and
 * commits before it exits 0 (the next start opens an index holding every
 * acknowledged document, with periodic commits off). `npm start` passes the
 * signal on: the server stops cleanly and nothing is left listening.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, test } from 'node:test';
import { accepts, startServer, type ServerProcess } from '../support/server-process.ts';
import { tempDir } from '../support/tmp.ts';
import { within } from '../support/wait.ts';

const ADMIN_KEY = 'lifecycle-master-key-0123456789';
const running: ServerProcess[] = [];
after(() => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

function start(env: Record<string, string>, how: 'node' | 'npm' = 'node'): ServerProcess {
  const s = startServer({ ADMIN_KEY, COMMIT_INTERVAL_MS: '7200000', ...env }, how);
  running.push(s);
  return s;
}

async function call(port: number, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const doc = (id: string) => ({
  datasource: 'handbook',
  id,
  title: `Page ${id}`,
  file_type: 'wiki',
  last_modified: '2026-01-01T00:00:00Z',
  body: { mime_type: 'text/plain', text_content: `The text of page ${id}.` },
});

/** A raw HTTP/1.1 connection that collects what the server sends. */
async function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('utf8').on('data', (d: string) => (received += d));
  const closed = once(socket, 'close');
  const until = async (pattern: RegExp) => {
    while (!pattern.test(received)) await Promise.race([once(socket, 'data'), closed]);
  };
  return { socket, closed, until, received: () => received };
}

test('SIGTERM: stop accepting, finish the request in flight, close keep-alive connections, drain and commit', async () => {
  const dataDir = await tempDir('shutdown-');
  const server = start({ DATA_DIR: dataDir });
  const port = await server.port();
  const sa = await call(port, 'POST', '/api/admin/service-accounts', ADMIN_KEY, { name: 'pusher' });
  await call(port, 'POST', '/api/indexing/datasources', sa.key, { name: 'handbook', display_name: 'Handbook' });
  const pushed = await call(port, 'POST', '/api/indexing/documents', sa.key, { documents: [doc('a'), doc('b')] });
  assert.ok(pushed.results.every((r: { outcome: string }) => r.outcome === 'sent'));

  // An idle keep-alive connection, and one with a push in flight: headers read (100 Continue), body half sent.
  const idle = await rawConnection(port);
  idle.socket.write(`GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n`);
  await idle.until(/\r\n\r\n\{"status":"ok"\}/);
  const body = JSON.stringify({ documents: [doc('c')] });
  const busy = await rawConnection(port);
  busy.socket.write(
    `POST /api/indexing/documents HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${sa.key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nexpect: 100-continue\r\n\r\n`,
  );
  await busy.until(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  busy.socket.write(body.slice(0, 10));

  server.child.kill('SIGTERM');
  await server.logLine('stopping');
  while (await accepts(port)); // stops accepting while the push is still in flight
  await idle.closed;

  busy.socket.write(body.slice(10));
  await busy.closed;
  const response = busy.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
  assert.match(response, /^HTTP\/1\.1 200 /);
  assert.match(response, /\r\nconnection: close\r\n/i, 'the client is told the connection ends');
  assert.match(response, /"outcome":"sent"/);
  assert.equal(await server.exited, 0);
  assert.ok(server.stdout().includes('"msg":"stopped"'));

  // Periodic commits are off: the three documents are in the index only if the stop drained and committed.
  const again = start({ DATA_DIR: dataDir });
  const opened = await again.logLine('search engine open');
  assert.equal(opened.docCount, 3);
  await again.port();
  again.child.kill('SIGTERM');
  assert.equal(await again.exited, 0, again.stdout() + again.stderr());
});

test('npm start passes SIGTERM on: the server stops cleanly and nothing is left listening', async () => {
  const server = start({ DATA_DIR: await tempDir('npm-start-') }, 'npm');
  const port = await server.port();
  assert.ok(await accepts(port));
  server.child.kill('SIGTERM');
  // npm may end by the signal itself; its output pipe closes only once the server (holding it too) has exited.
  await within(once(server.child, 'close'), 30_000, 'the server behind npm exits');
  assert.ok(server.stdout().includes('"msg":"stopped"'), 'the server itself got the signal and stopped');
  assert.equal(await accepts(port), false, 'no orphaned server listens');
});
