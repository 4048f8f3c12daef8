/**
 * The single executable end to end: build it (src/build/binary.ts), copy it alone into an empty
 * folder, and run it there with a minimal environment (no repository, no node_modules, like
 * `env -i`). Checks --version, --help and the operator commands (account, key, stats, backup,
 * restore), then starts the server on a free port with a temporary
 * DATA_DIR and ADMIN_KEY, drives the admin and Indexing APIs over HTTP, extracts a PDF through
 * the extraction worker pool (web search, engine2 with deep_search, against a fake SearXNG and a
 * site on 127.0.0.1), and stops it with SIGTERM. All temporary files are removed.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { buildBinary } from '../../src/build/binary.ts';
import { EnvSchema } from '../../src/config.ts';
import { HttpBrowser } from '../support/web.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN_KEY = `test-admin-${randomBytes(12).toString('hex')}`;
const SAMPLE_PDF = join(ROOT, 'test', 'extractors', 'fixtures', 'sample.pdf');

let temp: string;
let runDir: string;
let binary: string;
let server: { child: ChildProcess; base: string; output: () => string; exited: Promise<number | null> } | undefined;
let fake: http.Server | undefined;

/** The environment a fresh machine gives: nothing from this process, no repository on the path. */
function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin', HOME: runDir, TMPDIR: join(runDir, 'tmp'), ...extra };
}

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  return promisify(execFile)(binary, args, { cwd: runDir, env: bareEnv(env) }).then(
    (r) => ({ stdout: r.stdout, stderr: r.stderr, code: 0 }),
    (err: { stdout: string; stderr: string; code: number }) => ({
      stdout: err.stdout,
      stderr: err.stderr,
      code: err.code,
    }),
  );
}

/** Starts the binary with PORT=0 and resolves once it logs the port it listens on. */
function startServer(env: Record<string, string>): Promise<NonNullable<typeof server>> {
  const child = spawn(binary, [], { cwd: runDir, env: bareEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const port = /"msg":"listening".*?"port":(\d+)/.exec(output)?.[1];
      if (port) resolve({ child, base: `http://127.0.0.1:${port}`, output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`the binary exited with ${code} before listening:\n${output}`)));
  });
}

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(server!.base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A fake SearXNG (/search) whose only hit is this server's /sample.pdf (the PDF fixture). */
async function startFakeSearxngWithPdf(): Promise<string> {
  const pdf = await readFile(SAMPLE_PDF);
  fake = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const self = `http://127.0.0.1:${(fake!.address() as AddressInfo).port}`;
    if (url.pathname === '/search') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          results: [{ url: `${self}/sample.pdf`, title: 'Sample PDF', content: 'snippet only', engine: 'fake' }],
        }),
      );
    } else if (url.pathname === '/sample.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(pdf);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => fake!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
}

before(
  async () => {
    temp = await mkdtemp(join(tmpdir(), 'binary-test-'));
    const built = await buildBinary({ outDir: join(temp, 'build') });
    runDir = join(temp, 'run');
    await mkdir(join(runDir, 'tmp'), { recursive: true });
    binary = join(runDir, 'enterprise-search');
    await copyFile(built.binary, binary);
    await rm(join(temp, 'build'), { recursive: true, force: true });
    await chmod(binary, 0o755);
  },
  { timeout: 180_000 },
);

after(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  fake?.closeAllConnections();
  fake?.close();
  if (temp) await rm(temp, { recursive: true, force: true });
});

test('--version prints the version of package.json', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const r = await run(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${pkg.version}\n`);
});

test('--help lists every configuration variable; an unknown argument exits with 2', async () => {
  const r = await run(['--help']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Usage: /m);
  for (const name of Object.keys(EnvSchema.entries)) assert.match(r.stdout, new RegExp(`^  ${name} \\(`, 'm'), name);
  const bad = await run(['--frobnicate']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown argument/);
});

test('the operator commands: an account and its key, stats, a backup and its restore', async () => {
  const env = { DATA_DIR: join(runDir, 'cli-data'), LOG_LEVEL: 'warn' };
  const account = await run(['account', 'create', 'ops@example.com', '--role', 'administrator'], env);
  assert.equal(account.code, 0, account.stderr);
  const key = await run(['key', 'create', 'ops@example.com'], env);
  assert.equal(key.code, 0, key.stderr);
  assert.match(JSON.parse(key.stdout).key, /^pk_/);
  const stats = await run(['stats'], env);
  assert.equal(stats.code, 0, stats.stderr);
  assert.equal(JSON.parse(stats.stdout).index.documents, 0);
  const backup = await run(['backup', join(runDir, 'cli-backup')], env);
  assert.equal(backup.code, 0, backup.stderr);
  const restore = await run(['restore', join(runDir, 'cli-backup')], {
    ...env,
    DATA_DIR: join(runDir, 'cli-restored'),
  });
  assert.equal(restore.code, 0, restore.stderr);
  assert.equal(JSON.parse(restore.stdout).format, JSON.parse(backup.stdout).format);
  const refused = await run(['restore', join(runDir, 'cli-backup')], env);
  assert.equal(refused.code, 1, 'a non-empty DATA_DIR is refused');
});

test('from an empty folder: serves the admin, Indexing and search APIs, extracts PDF and DOCX in workers, stops on SIGTERM', async () => {
  const searxng = await startFakeSearxngWithPdf();
  server = await startServer({
    PORT: '0',
    DATA_DIR: join(runDir, 'data'),
    ADMIN_KEY,
    LOG_LEVEL: 'info',
    SEARXNG_BASE_URL: searxng,
    CRAWLER_ALLOW_PRIVATE: 'true',
    COMMIT_INTERVAL_MS: '100',
  });
  const health = await fetch(`${server.base}/healthz`);
  assert.equal(health.status, 200);

  const sa = await call('POST', '/api/admin/service-accounts', ADMIN_KEY, { name: 'binary-test' });
  assert.equal(sa.status, 200, JSON.stringify(sa.body));
  assert.equal(typeof sa.body.key, 'string');
  const ds = await call('POST', '/api/indexing/datasources', sa.body.key, { name: 'wiki', display_name: 'Wiki' });
  assert.equal(ds.status, 200, JSON.stringify(ds.body));
  assert.equal(ds.body.name, 'wiki');
  const listed = await call('GET', '/api/indexing/datasources', sa.body.key);
  assert.deepEqual(
    listed.body.datasources.map((d: { name: string }) => d.name),
    ['wiki'],
  );

  // The PDF goes through the extraction worker pool (bundled worker asset, pdf.js inside).
  assert.equal((await call('POST', '/api/admin/accounts', ADMIN_KEY, { email: 'user@example.com' })).status, 200);
  const personal = await call('POST', '/api/admin/accounts/user@example.com/keys', ADMIN_KEY, {});
  assert.equal(personal.status, 200, JSON.stringify(personal.body));
  const web = await call('POST', '/api/beta/web_search', personal.body.key, {
    queries: ['zebrafish'],
    mode: 'engine2',
    deep_search: true,
  });
  assert.equal(web.status, 200, JSON.stringify(web.body));
  assert.match(web.body[0].content, /Zebrafish migration study/);
  assert.match(web.body[0].content, /Second page about kelp forests/);

  // A DOCX pushed through the Indexing API is extracted in a worker, committed, and found by the search API.
  assert.equal(
    (
      await call('POST', '/api/indexing/users', sa.body.key, {
        datasource: 'wiki',
        user: { email: 'user@example.com' },
      })
    ).status,
    200,
  );
  const docx = (await readFile(join(ROOT, 'test', 'extractors', 'fixtures', 'sample.docx'))).toString('base64');
  const pushed = await call('POST', '/api/indexing/documents?wait=true', sa.body.key, {
    documents: {
      datasource: 'wiki',
      id: 'doc-1',
      title: 'Sample report',
      file_type: 'file',
      last_modified: '2026-01-01T00:00:00Z',
      body: {
        mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        binary_base64: docx,
      },
    },
  });
  assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
  assert.equal(pushed.body.results[0].outcome, 'sent');
  assert.equal(pushed.body.committed, true);
  const found = await call('GET', '/api/beta/search?query=photosynthesis', personal.body.key);
  assert.equal(found.status, 200, JSON.stringify(found.body));
  assert.deepEqual(
    found.body.results.map((r: { id: string }) => r.id),
    ['wiki:doc-1'],
  );
  assert.equal(found.body.results[0].file_type, 'word');

  // The pages and their assets come from the binary: sign in through the form, load the search page and its module.
  const password = await call('PUT', '/api/admin/accounts/user@example.com/password', ADMIN_KEY, {
    password: 'binary test password',
  });
  assert.equal(password.status, 200, JSON.stringify(password.body));
  const browser = new HttpBrowser(server.base);
  assert.equal((await browser.signIn('user@example.com', 'binary test password')).status, 303);
  const page = await browser.request('/?q=photosynthesis');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const script = /<script type="module" src="(\/assets\/search\.[0-9a-f]+\.js)"/.exec(page.text)?.[1];
  assert.ok(script, 'the search page loads its module');
  const asset = await fetch(server.base + script, { headers: { 'accept-encoding': 'br' } });
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get('content-type') ?? '', /^text\/javascript/);
  assert.match(asset.headers.get('cache-control') ?? '', /immutable/);

  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.output());
  assert.match(server.output(), /"msg":"stopped"/);
  // Checked once the process is gone: each thread that loads the bundle (main, search, merge and
  // extraction workers, some started lazily) unpacks the addon into a private directory for a moment.
  assert.deepEqual(await readdir(join(runDir, 'tmp')), [], 'the embedded addon leaves no temporary file behind');
  assert.doesNotMatch(server.output(), new RegExp(ADMIN_KEY), 'the admin key is never printed');
});
