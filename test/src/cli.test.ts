/** Command-line flags of the server entry: --version, --help (derived from EnvSchema), unknown arguments. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCommandLine, usage } from '../../src/cli.ts';
import { EnvSchema } from '../../src/config.ts';

test('no arguments: the server starts', () => {
  assert.deepEqual(parseCommandLine([]), { action: 'serve' });
});

test('--version and -v print the version of package.json', async () => {
  const pkg = JSON.parse(await readFile(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  for (const flag of ['--version', '-v']) {
    assert.deepEqual(parseCommandLine([flag]), {
      action: 'print',
      stream: 'stdout',
      text: `${pkg.version}\n`,
      exitCode: 0,
    });
  }
});

test('--help lists every configuration variable with the default of the schema', () => {
  const help = parseCommandLine(['--help']);
  assert.equal(help.action, 'print');
  assert.equal(help.action === 'print' && help.text, usage());
  const text = usage();
  for (const [name, schema] of Object.entries(EnvSchema.entries)) {
    const fallback = (schema as { default?: string }).default;
    const expected = fallback === undefined ? `  ${name} (unset)` : `  ${name} (default ${fallback})`;
    assert.ok(text.includes(`${expected}\n      `), `${name} is listed as "${expected}" with a description`);
  }
  assert.match(text, /PORT \(default 8080\)/);
  assert.doesNotMatch(text, /undefined/, 'every variable has a description');
});

test('connector run <id>: one connector runs on demand', () => {
  assert.deepEqual(parseCommandLine(['connector', 'run', 'conn_0123']), { action: 'connector-run', id: 'conn_0123' });
  for (const args of [['connector'], ['connector', 'run'], ['connector', 'list', 'x']]) {
    const r = parseCommandLine(args);
    assert.ok(r.action === 'print' && r.exitCode === 2, args.join(' '));
  }
});

test('unknown or extra arguments: a hint on stderr and exit code 2', () => {
  for (const args of [['--frobnicate'], ['serve'], ['--version', '--help']]) {
    const r = parseCommandLine(args);
    assert.equal(r.action, 'print');
    assert.ok(
      r.action === 'print' && r.stream === 'stderr' && r.exitCode === 2 && /try --help/.test(r.text),
      args.join(' '),
    );
  }
});

test('operator commands: parsed with their options; malformed ones are usage errors (exit 2)', () => {
  assert.deepEqual(parseCommandLine(['backup', '/srv/b']), {
    action: 'command',
    command: { name: 'backup', dir: '/srv/b' },
  });
  assert.deepEqual(parseCommandLine(['account', 'create', 'a@example.com', '--role', 'developer', '--name', 'A']), {
    action: 'command',
    command: { name: 'account-create', email: 'a@example.com', displayName: 'A', roles: ['developer'] },
  });
  assert.deepEqual(parseCommandLine(['key', 'create', 'a@example.com', '--expires-at', '2030-01-01T00:00:00Z']), {
    action: 'command',
    command: { name: 'key-create', email: 'a@example.com', expiresAt: '2030-01-01T00:00:00Z' },
  });
  for (const args of [
    ['restore'],
    ['restore', 'a', 'b'],
    ['reindex', '--fast'],
    ['account', 'create', 'a@example.com', '--role'],
    ['account', 'create', 'a@example.com', '--role', 'root'],
    ['service-account', 'create', '--expires-at', 'x'],
  ]) {
    const r = parseCommandLine(args);
    assert.ok(r.action === 'print' && r.exitCode === 2 && /try --help/.test(r.text), args.join(' '));
  }
  assert.match(usage(), /^ {2}backup DIR/m);
  assert.match(usage(), /^ {2}reindex/m);
});
