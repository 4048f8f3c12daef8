/**
 * The server (src/main.ts) killed with SIGKILL while it runs a connector in the background, then
 * started again on the same data directory: the killed run is found interrupted and resumed at
 * once without anyone asking (trigger `restart`), and it ends with every file indexed exactly
 * once; a run after that finds every file unchanged.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { connectorHarness, MASTER, SECRET, tempDir, writeTree } from '../../support/connectors.ts';

const MAIN = new URL('../../../src/main.ts', import.meta.url).pathname;

interface Server {
  child: ChildProcess;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** Polls `probe` every 100 ms until it returns a value; fails after `ms`. */
async function eventually<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      ADMIN_KEY: MASTER,
      CONNECTOR_SECRET: SECRET,
      COMMIT_INTERVAL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const port = await eventually('the server listens', 60_000, async () => {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
    const m = /"msg":"listening".*"port":(\d+)/.exec(output);
    return m ? Number(m[1]) : undefined;
  });
  return {
    child,
    async call(method, path, body) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

async function stop(server: Server, signal: NodeJS.Signals): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill(signal);
  await exited;
}

test(
  'a server killed with SIGKILL during a background run resumes it at the next start',
  { timeout: 600_000 },
  async () => {
    const n = 6000;
    const root = await tempDir('server-kill9-root-');
    const dataDir = await tempDir('server-kill9-data-');
    let server: Server | undefined;
    try {
      const files: Record<string, string> = {};
      for (let i = 0; i < n; i++) files[`d${i % 30}/f${i}.txt`] = `contents of file ${i} token${i}`;
      await writeTree(root, files);

      server = await startServer(dataDir);
      const created = await server.call('POST', '/api/admin/connectors', {
        name: 'Background',
        type: 'fileshares',
        datasource: 'background',
        settings: { root },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id: string = created.body.id;
      const s = server;
      const doneAtKill = await eventually('the background run is under way', 120_000, async () => {
        const run = (await s.call('GET', `/api/admin/connectors/${id}/status`)).body.current_run;
        return run && run.progress.done >= 1500 ? (run.progress.done as number) : undefined;
      });
      await stop(server, 'SIGKILL');
      assert.ok(doneAtKill < n, 'killed midway');

      server = await startServer(dataDir);
      const t = server;
      const status = await eventually('the resumed run ends', 300_000, async () => {
        const body = (await t.call('GET', `/api/admin/connectors/${id}/status`)).body;
        return body.state === 'idle' && body.last_run ? body : undefined;
      });
      const last = status.last_run;
      assert.equal(last.trigger, 'restart', 'resumed without being asked');
      assert.equal(last.run, 2, 'the killed run was the first');
      assert.equal(last.state, 'completed', JSON.stringify(last));
      assert.equal(last.counts.failed, 0);
      assert.equal(last.counts.unchanged + last.counts.sent + last.counts.already_indexed, n);
      assert.ok(
        last.counts.unchanged + last.counts.already_indexed >= 1000,
        `what the killed run pushed is recorded or answered already_indexed: ${JSON.stringify(last.counts)}`,
      );
      await stop(server, 'SIGTERM');
      server = undefined;

      const h = await connectorHarness({ dir: dataDir });
      try {
        assert.equal(h.ids('background').length, n, 'every file once');
        assert.equal(h.doc('background', 'd7/f4237.txt')?.stored.title, 'f4237.txt');
        const again = await h.run(id);
        assert.deepEqual(again.counts, {
          unchanged: n,
          sent: 0,
          already_indexed: 0,
          skipped: 0,
          failed: 0,
          deleted: 0,
        });
      } finally {
        await h.close(false);
      }
    } finally {
      if (server) await stop(server, 'SIGKILL');
      await rm(root, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  },
);
