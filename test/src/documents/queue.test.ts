/** The durable document queue: ordered sequence numbers, replay, rotation, release of drained files, torn tails. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/log.ts';
import { DocumentQueue } from '../../../src/documents/queue.ts';
import { scanFile } from '../../../src/storage/record-log.ts';

const del = (id: string) => ({ op: 'delete' as const, datasource: 'wiki', id });

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'queue-test-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('sequence numbers follow call order and survive a reopen', () =>
  withDir(async (dir) => {
    let { queue, ops } = await DocumentQueue.open(dir, silentLogger);
    assert.equal(ops.length, 0);
    const a = queue.append(del('a'));
    const b = queue.append(del('b'));
    assert.deepEqual([a.seq, b.seq], [1, 2]);
    await Promise.all([a.durable, b.durable]);
    await queue.close();
    ({ queue, ops } = await DocumentQueue.open(dir, silentLogger));
    assert.deepEqual(
      ops.map((o) => [o.seq, o.op === 'delete' && o.id]),
      [
        [1, 'a'],
        [2, 'b'],
      ],
    );
    assert.equal(queue.append(del('c')).seq, 3);
    await queue.close();
  }));

test('minSeq keeps numbers above the last committed one when the files are gone', () =>
  withDir(async (dir) => {
    const { queue } = await DocumentQueue.open(dir, silentLogger, { minSeq: 41 });
    assert.equal(queue.append(del('x')).seq, 42);
    await queue.close();
  }));

test('files rotate, and whole files are released once committed', () =>
  withDir(async (dir) => {
    const { queue } = await DocumentQueue.open(dir, silentLogger, { rotateBytes: 200 });
    const appended = [];
    for (let i = 0; i < 12; i++) appended.push(queue.append(del(`doc-${i}`)));
    await Promise.all(appended.map((a) => a.durable));
    const files = (await readdir(dir)).filter((n) => n.endsWith('.bin'));
    assert.ok(files.length > 2, `rotated into ${files.length} files`);
    await queue.releaseThrough(6);
    await queue.close();
    const { ops } = await DocumentQueue.open(dir, silentLogger);
    const seqs = ops.map((o) => o.seq);
    assert.ok(seqs.length < 12, 'released files are gone');
    assert.deepEqual(
      seqs.filter((s) => s > 6),
      [7, 8, 9, 10, 11, 12],
      'nothing after the released point is lost',
    );
  }));

test('a fully drained current file is released too', () =>
  withDir(async (dir) => {
    const { queue } = await DocumentQueue.open(dir, silentLogger);
    await queue.append(del('a')).durable;
    await queue.releaseThrough(1);
    assert.equal((await readdir(dir)).filter((n) => n.endsWith('.bin')).length, 0);
    await queue.append(del('b')).durable;
    await queue.close();
    const { ops } = await DocumentQueue.open(dir, silentLogger, { minSeq: 1 });
    assert.deepEqual(
      ops.map((o) => o.seq),
      [2],
    );
  }));

test('a torn tail is cut off and the acknowledged records replay', () =>
  withDir(async (dir) => {
    const { queue } = await DocumentQueue.open(dir, silentLogger);
    await queue.append(del('a')).durable;
    await queue.close();
    const [file] = (await readdir(dir)).filter((n) => n.endsWith('.bin'));
    await appendFile(join(dir, file), new Uint8Array([200, 0, 0, 0, 1, 2, 3]));
    const { queue: q2, ops } = await DocumentQueue.open(dir, silentLogger);
    assert.deepEqual(
      ops.map((o) => o.seq),
      [1],
    );
    assert.equal(q2.append(del('b')).seq, 2);
    await q2.close();
  }));

test('operations appended together share one record and replay in order with their own numbers', () =>
  withDir(async (dir) => {
    let { queue } = await DocumentQueue.open(dir, silentLogger);
    await queue.append(del('a')).durable;
    const many = queue.appendMany([del('b'), del('c'), del('d')]);
    assert.deepEqual(many.seqs, [2, 3, 4]);
    assert.deepEqual(
      many.ops.map((o) => o.seq),
      [2, 3, 4],
    );
    assert.equal(queue.append(del('e')).seq, 5);
    await many.durable;
    await queue.close();
    const [file] = (await readdir(dir)).filter((n) => n.endsWith('.bin'));
    assert.equal((await scanFile(join(dir, file)))!.records.length, 3, 'a, [b c d], e');
    let ops;
    ({ queue, ops } = await DocumentQueue.open(dir, silentLogger));
    assert.deepEqual(
      ops.map((o) => [o.seq, o.op === 'delete' && o.id]),
      [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
        [4, 'd'],
        [5, 'e'],
      ],
    );
    assert.equal(queue.appendMany([]).seqs.length, 0);
    assert.equal(queue.append(del('f')).seq, 6);
    await queue.releaseThrough(4);
    await queue.close();
  }));
