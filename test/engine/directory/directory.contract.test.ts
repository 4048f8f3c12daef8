/**
 * One contract suite run against both Directory implementations: write-once files,
 * append-only logs, listing, deletion, typed errors.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsDirectory, MemoryDirectory, type Directory } from '../../../engine/directory/index.ts';
import { EngineError } from '../../../engine/errors.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

function contract(name: string, make: () => Promise<Directory>) {
  describe(`Directory contract: ${name}`, () => {
    let dir: Directory;
    before(async () => {
      dir = await make();
    });

    it('writes a file once from several chunks and reads it back', async () => {
      await dir.writeFile('a.seg', [bytes('hello '), bytes('world')]);
      assert.equal(text(await dir.readFile('a.seg')), 'hello world');
      assert.ok((await dir.listAll()).includes('a.seg'));
    });

    it('refuses to overwrite an existing file with EXISTS', async () => {
      await dir.writeFile('b.seg', [bytes('x')]);
      await assert.rejects(
        dir.writeFile('b.seg', [bytes('y')]),
        (e) => e instanceof EngineError && e.code === 'EXISTS',
      );
      assert.equal(text(await dir.readFile('b.seg')), 'x');
    });

    it('appends to logs, creating them on first append', async () => {
      await dir.appendFile('c.log', bytes('one'));
      await dir.appendFile('c.log', bytes('two'));
      assert.equal(text(await dir.readFile('c.log')), 'onetwo');
      await dir.syncDirectory();
    });

    it('starts a deleted log afresh on the next append, also across a lock release', async () => {
      const lock = await dir.lock();
      await dir.appendFile('e.log', bytes('old'));
      await dir.deleteFile('e.log');
      await dir.appendFile('e.log', bytes('new'));
      await dir.syncDirectory();
      assert.equal(text(await dir.readFile('e.log')), 'new');
      await lock.release();
      await dir.appendFile('e.log', bytes('+more'));
      await dir.syncDirectory();
      assert.equal(text(await dir.readFile('e.log')), 'new+more');
    });

    it('reports a missing file as NOT_FOUND and deletes idempotently', async () => {
      await assert.rejects(dir.readFile('nope.seg'), (e) => e instanceof EngineError && e.code === 'NOT_FOUND');
      await dir.writeFile('d.seg', [bytes('d')]);
      await dir.deleteFile('d.seg');
      await dir.deleteFile('d.seg');
      assert.ok(!(await dir.listAll()).includes('d.seg'));
    });

    it('rejects file names with path separators', async () => {
      await assert.rejects(dir.writeFile('../evil', [bytes('x')]), (e) => e instanceof EngineError && e.code === 'IO');
    });

    it('grants the writer lock to one holder at a time', async () => {
      const lock = await dir.lock();
      await assert.rejects(dir.lock(), (e) => e instanceof EngineError && e.code === 'LOCKED');
      await lock.release();
      await lock.release();
      const again = await dir.lock();
      await again.release();
    });

    it('fails with CLOSED after close', async () => {
      const d = await make();
      await d.close();
      await assert.rejects(d.listAll(), (e) => e instanceof EngineError && e.code === 'CLOSED');
    });

    after(async () => {
      await dir.close();
    });
  });
}

describe('FsDirectory lock files', () => {
  it('takes over a lock left by a dead process', async () => {
    const p = await mkdtemp(join(tmpdir(), 'engine-lock-'));
    tmpDirs.push(p);
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(child.stdout.toString());
    await writeFile(join(p, 'write.lock'), String(deadPid));
    const dir = await FsDirectory.open(p);
    const lock = await dir.lock();
    await lock.release();
  });

  it('refuses a lock held by a live process', async () => {
    const p = await mkdtemp(join(tmpdir(), 'engine-lock-'));
    tmpDirs.push(p);
    await writeFile(join(p, 'write.lock'), String(process.ppid));
    const dir = await FsDirectory.open(p);
    await assert.rejects(dir.lock(), (e) => e instanceof EngineError && e.code === 'LOCKED');
  });
});

const tmpDirs: string[] = [];
contract('MemoryDirectory', async () => new MemoryDirectory());
contract('FsDirectory', async () => {
  const p = await mkdtemp(join(tmpdir(), 'engine-dir-'));
  tmpDirs.push(p);
  return FsDirectory.open(p);
});

after(async () => {
  for (const p of tmpDirs) await rm(p, { recursive: true, force: true });
});
