/**
 * The master key: with ADMIN_KEY set it works and nothing is stored; without
 * it the first start generates a key, stores only its digest and prints it
 * once in a banner; later starts print nothing. The end-to-end case runs the
 * real server (src/main.ts) twice on one data directory and stops it with SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensureMasterKey, masterKeyDigest } from '../../../src/accounts/master.ts';
import { accountsPart } from '../../../src/accounts/state.ts';
import { appHarness } from '../../support/app.ts';
import { tempDir } from '../../support/tmp.ts';

const MAIN = join(import.meta.dirname, '..', '..', '..', 'src', 'main.ts');

test('ADMIN_KEY: accepted as the master key, never generated or stored', async () => {
  const h = await appHarness({ adminKey: 'operator-chosen-secret-1234' });
  assert.equal(await ensureMasterKey(h.services), undefined);
  assert.equal(h.services.state.get(accountsPart).masterKeyDigest, null);
  assert.equal((await h.call('GET', '/api/admin/accounts', { key: 'operator-chosen-secret-1234' })).status, 200);
});

test('without ADMIN_KEY: generated once, digest stored durably, never generated again', async () => {
  const dataDir = await tempDir('master-');
  const first = await appHarness({ dataDir, adminKey: null });
  assert.equal(await masterKeyDigest(first.services), undefined);
  const key = await ensureMasterKey(first.services);
  assert.match(key ?? '', /^mk_[A-Za-z0-9_-]{43}$/);
  assert.equal(await ensureMasterKey(first.services), undefined);
  await first.close();
  const second = await appHarness({ dataDir, adminKey: null });
  assert.equal(await ensureMasterKey(second.services), undefined);
  assert.equal((await second.call('GET', '/api/admin/accounts', { key: key! })).status, 200);
  assert.equal((await second.call('GET', '/api/admin/accounts', { key: 'mk_wrong' })).status, 401);
  await second.close();
});

/** Start the server, wait until it listens, stop it with SIGTERM; returns stdout and the exit code. */
function runServer(dataDir: string): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
    delete env.ADMIN_KEY;
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('"msg":"listening"') && !child.killed) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ stdout, code }) : reject(new Error(`exit ${code}: ${stderr}`))));
  });
}

test('npm start: the generated key is printed once in a banner, never logged, and shutdown is clean', async () => {
  const dataDir = await tempDir('main-');
  const first = await runServer(dataDir);
  const printed = first.stdout.match(/mk_[A-Za-z0-9_-]{43}/g) ?? [];
  assert.equal(printed.length, 1, 'the key appears exactly once');
  assert.ok(first.stdout.includes('MASTER KEY GENERATED'));
  const keyLine = first.stdout.split('\n').find((l) => l.includes(printed[0]))!;
  assert.ok(!keyLine.startsWith('{'), 'the key is in the banner, not in a JSON log line');
  assert.ok(first.stdout.includes('"msg":"stopped"'));

  const second = await runServer(dataDir);
  assert.equal(/mk_[A-Za-z0-9_-]{43}/.test(second.stdout), false, 'not printed again');
  assert.ok(!second.stdout.includes('MASTER KEY GENERATED'));
});
