/**
 * Operator commands of the CLI, driven as processes: accounts, personal keys and service
 * accounts created (and a password set under the password policy) on a data directory with no server on it work once a server opens
 * it; secrets appear once on stdout and never on stderr; while a server holds the data
 * directory every command refuses clearly (exit 1) and names the admin API to use instead.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { runCli } from '../../support/cli-process.ts';
import { startServer, type ServerProcess } from '../../support/server-process.ts';
import { tempDir } from '../../support/tmp.ts';

const ADMIN_KEY = 'commands-master-key-0123456789';
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
  return { status: res.status, json: (await res.json()) as any };
}

test('accounts, keys, a password and a service account made by the CLI work in the server', async () => {
  const env = { DATA_DIR: await tempDir('cli-accounts-'), ADMIN_KEY };
  const account = await runCli(
    ['account', 'create', 'Ada@Example.com', '--name', 'Ada', '--role', 'administrator', '--role', 'developer'],
    env,
  );
  assert.equal(account.code, 0, account.stderr);
  assert.deepEqual(JSON.parse(account.stdout).roles, ['administrator', 'developer']);
  const key = await runCli(['key', 'create', 'ada@example.com'], env);
  assert.equal(key.code, 0, key.stderr);
  const personal = JSON.parse(key.stdout).key as string;
  assert.match(personal, /^pk_/);
  const sa = await runCli(['service-account', 'create', 'pusher'], env);
  assert.equal(sa.code, 0, sa.stderr);
  const service = JSON.parse(sa.stdout).key as string;
  assert.match(service, /^svcsa_/);
  const password = await runCli(['account', 'password', 'ada@example.com'], env, 'a long enough password\n');
  assert.equal(password.code, 0, password.stderr);
  assert.ok(JSON.parse(password.stdout).password_set_at);
  const short = await runCli(['account', 'password', 'ada@example.com'], env, 'short\n');
  assert.equal(short.code, 1);
  assert.match(short.stderr, /account-password: .*10/);
  for (const r of [account, key, sa, password]) {
    assert.ok(!r.stderr.includes(personal) && !r.stderr.includes(service), 'no secret on stderr');
  }
  assert.equal((await runCli(['account', 'create', 'ada@example.com'], env)).code, 1, 'a duplicate is refused');
  assert.equal((await runCli(['key', 'create', 'nobody@example.com'], env)).code, 1, 'an unknown account');

  const server = startServer(env);
  running.push(server);
  const port = await server.port();
  assert.equal((await call(port, 'GET', '/api/beta/search?query=anything', personal)).status, 200);
  const ds = await call(port, 'POST', '/api/indexing/datasources', service, { name: 'wiki', display_name: 'Wiki' });
  assert.equal(ds.status, 200, JSON.stringify(ds.json));
  const accounts = await call(port, 'GET', '/api/admin/accounts', ADMIN_KEY);
  assert.deepEqual(
    accounts.json.accounts.map((a: { email: string }) => a.email),
    ['ada@example.com'],
  );
  // While the server holds the data directory: refused, naming the admin API.
  const refusals: [string[], RegExp][] = [
    [['account', 'create', 'bob@example.com'], /POST \/api\/admin\/accounts/],
    [['key', 'create', 'ada@example.com'], /POST \/api\/admin\/accounts\/\{email\}\/keys/],
    [['backup', `${env.DATA_DIR}-copy`], /POST \/api\/admin\/backups/],
    [['stats'], /GET \/api\/admin\/stats/],
    [['reindex'], /stop the server/],
  ];
  for (const [args, hint] of refusals) {
    const r = await runCli(args, env);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, /in use by a running server/, args.join(' '));
    assert.match(r.stderr, hint, args.join(' '));
    assert.equal(r.stdout, '');
  }
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
});

test('usage mistakes: exit 2 with a hint', async () => {
  const env = { DATA_DIR: await tempDir('cli-usage-'), ADMIN_KEY };
  for (const args of [
    ['key', 'create'],
    ['account', 'create', 'a@example.com', '--role', 'owner'],
    ['account', 'create', 'a@example.com', '--colour', 'red'],
    ['backup'],
    ['stats', 'now'],
  ]) {
    const r = await runCli(args, env);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /try --help/, args.join(' '));
  }
});
