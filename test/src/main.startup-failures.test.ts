/**
 * Start-up failures an operator can fix are one readable line on stderr and a
 * non-zero exit, without a stack trace: the port in use, a DATA_DIR under a
 * file, a DATA_DIR that is a file. The real server process is started.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from '../support/server-process.ts';
import { tempDir } from '../support/tmp.ts';

const ADMIN_KEY = 'startup-master-key-0123456789';

async function failedStart(env: Record<string, string>): Promise<string> {
  const server = startServer({ ADMIN_KEY, ...env });
  const code = await server.exited;
  assert.notEqual(code, 0);
  const lines = server.stderr().trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line: ${server.stderr()}`);
  assert.doesNotMatch(lines[0], /\bat \S+ \(|Error:|node:internal/, 'no stack trace');
  return lines[0];
}

test('a port in use: one line naming the address', async () => {
  const taken = createServer();
  taken.listen(0, '127.0.0.1');
  await once(taken, 'listening');
  const { port } = taken.address() as AddressInfo;
  try {
    const line = await failedStart({ DATA_DIR: await tempDir('port-'), PORT: String(port) });
    assert.equal(line, `cannot listen on 127.0.0.1:${port}: the address is already in use (set PORT or HOST)`);
  } finally {
    taken.close();
  }
});

test('a DATA_DIR that cannot be created or is not a directory: one line naming it', async () => {
  const dir = await tempDir('data-dir-');
  const file = join(dir, 'a-file');
  await writeFile(file, 'x');
  assert.equal(
    await failedStart({ DATA_DIR: join(file, 'data') }),
    `DATA_DIR ${join(file, 'data')} is not usable: a part of the path is a file, not a directory (ENOTDIR)`,
  );
  assert.equal(
    await failedStart({ DATA_DIR: file }),
    `DATA_DIR ${file} is not usable: it exists and is not a directory (EEXIST)`,
  );
});
