/**
 * The packaging files keep their promises (docker cannot run here, so the
 * Dockerfile's structure is checked; the README documents the build): the
 * image is the single binary on a slim base, runs as a non-root user, keeps
 * DATA_DIR on a volume and checks /healthz; the systemd unit runs under a
 * user of its own with the hardening options, keeps DATA_DIR in its state
 * directory and gives the graceful stop its time, and `systemd-analyze
 * verify` accepts it where systemd is installed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { tempDir } from '../support/tmp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFile(join(ROOT, path), 'utf8');

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions of each stage (continuation lines joined, comments dropped). */
function dockerStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  const joined = text.replace(/\\\n/g, ' ');
  for (const line of joined.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    assert.ok(op, `not an instruction: ${line}`);
    if (op.toUpperCase() === 'FROM') stages.push([]);
    assert.ok(stages.length > 0, `${op} before FROM`);
    stages[stages.length - 1].push({ op: op.toUpperCase(), args: args.trim() });
  }
  return stages;
}

/** KEY=value pairs of ENV instructions. */
function envOf(stage: Instruction[]): Map<string, string> {
  const env = new Map<string, string>();
  for (const i of stage.filter((i) => i.op === 'ENV'))
    for (const [, k, v] of i.args.matchAll(/(\w+)=(\S+)/g)) env.set(k, v);
  return env;
}

test('Dockerfile: the single binary on a slim base, non-root, DATA_DIR a volume, a health check', async () => {
  const stages = dockerStages(await read('docs/packaging/Dockerfile'));
  assert.ok(stages.length >= 2, 'a build stage and a runtime stage');
  const build = stages[0];
  assert.ok(build.some((i) => i.op === 'RUN' && i.args.includes('npm ci')));
  assert.ok(build.some((i) => i.op === 'RUN' && i.args.includes('npm run build:binary')));
  const final = stages[stages.length - 1];
  assert.match(final[0].args, /-slim\b/, 'a slim base image');
  const copy = final.find((i) => i.op === 'COPY' && i.args.includes('dist/enterprise-search'));
  assert.ok(copy, 'the binary is copied from the build stage');
  assert.match(copy.args, /^--from=\S+/);
  const binary = copy.args.split(/\s+/).at(-1)!;
  const entry = final.find((i) => i.op === 'ENTRYPOINT');
  assert.deepEqual(JSON.parse(entry!.args), [binary]);
  assert.ok(!final.some((i) => i.op === 'COPY' && /node_modules|\.\s*$/.test(i.args)), 'only the binary');

  const user = final.filter((i) => i.op === 'USER').at(-1);
  assert.ok(user, 'USER is set');
  assert.doesNotMatch(user.args, /^(root|0)(:|$)/, 'not root');
  const env = envOf(final);
  const dataDir = env.get('DATA_DIR');
  assert.ok(dataDir, 'DATA_DIR is set');
  const volume = final.find((i) => i.op === 'VOLUME');
  assert.ok(volume && JSON.parse(volume.args).includes(dataDir), 'DATA_DIR is a volume');
  assert.equal(env.get('HOST'), '0.0.0.0');
  assert.ok(final.some((i) => i.op === 'EXPOSE' && i.args === env.get('PORT')));
  const health = final.find((i) => i.op === 'HEALTHCHECK');
  assert.ok(health, 'HEALTHCHECK is set');
  assert.match(health.args, /CMD .*\/healthz/);
  assert.match(health.args, /\$\{PORT\}/, 'checks the port the server listens on');

  const ignore = (await read('.dockerignore')).split('\n');
  for (const path of ['node_modules', 'data', 'dist', '.git'])
    assert.ok(ignore.includes(path), `.dockerignore: ${path}`);
  assert.match(await read('README.md'), /docker build -f docs\/packaging\/Dockerfile -t enterprise-search \./);
});

/** The [Service] settings of a unit file: key -> values in order. */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) section = header[1];
    else if (section === 'Service') {
      const [key, ...rest] = line.split('=');
      settings.set(key, [...(settings.get(key) ?? []), rest.join('=')]);
    }
  }
  return settings;
}

test('systemd unit: a user of its own, hardening, DATA_DIR in the state directory, time to stop', async () => {
  const text = await read('docs/packaging/enterprise-search.service');
  const s = serviceSettings(text);
  const one = (key: string) => s.get(key)?.at(-1);
  assert.ok(one('DynamicUser') === 'yes' || (one('User') && one('User') !== 'root'), 'a dynamic or dedicated user');
  assert.equal(one('ProtectSystem'), 'strict');
  assert.equal(one('NoNewPrivileges'), 'yes');
  assert.equal(one('ProtectHome'), 'yes');
  assert.equal(one('PrivateDevices'), 'yes');
  assert.equal(one('CapabilityBoundingSet'), '');
  assert.notEqual(one('MemoryDenyWriteExecute'), 'yes', "V8's JIT needs writable executable memory");
  const state = one('StateDirectory');
  assert.ok(state);
  assert.ok(
    (s.get('Environment') ?? []).some((e) => e.split(/\s+/).includes(`DATA_DIR=/var/lib/${state}`)),
    'DATA_DIR is the state directory',
  );
  assert.equal(one('KillSignal'), 'SIGTERM');
  assert.ok(Number.parseInt(one('TimeoutStopSec')!, 10) > 10, 'longer than the 10 s grace of in-flight requests');
  assert.match(one('ExecStart')!, /^\/\S+\/enterprise-search$/);
});

test('systemd-analyze verify accepts the unit', async (t) => {
  const analyze = await promisify(execFile)('systemd-analyze', ['--version']).catch(() => undefined);
  if (!analyze) return t.skip('systemd-analyze is not installed');
  const dir = await tempDir('unit-');
  const unit = join(dir, 'enterprise-search.service');
  // The binary is not installed here: ExecStart points at an executable that exists.
  const text = await read('docs/packaging/enterprise-search.service');
  await writeFile(unit, text.replace(/^ExecStart=.*$/m, `ExecStart=${process.execPath}`));
  const res = await promisify(execFile)('systemd-analyze', ['verify', unit]).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  assert.equal(res.stderr.trim(), '', res.stderr);
  assert.equal(res.code, 0);
});
