/** Group commit: concurrent appends are batched into few fsyncs, written and acknowledged strictly in call order. */
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { RecordLogWriter, StorageError, replayFile } from '../../../src/storage/record-log.ts';
import { silentLogger } from '../../../src/log.ts';
import { tempDir } from '../../support/tmp.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

test('a burst of appends is written as one batch, acknowledged and stored in call order', async () => {
  const path = join(await tempDir(), 'log.bin');
  const w = new RecordLogWriter(path);
  const acked: number[] = [];
  await Promise.all(Array.from({ length: 300 }, (_, i) => w.append(enc.encode(`r${i}`)).then(() => acked.push(i))));
  assert.deepEqual(
    acked,
    Array.from({ length: 300 }, (_, i) => i),
  );
  assert.deepEqual(w.stats, { batches: 1, records: 300 });
  await w.close();
  const replayed = await replayFile(path, silentLogger);
  assert.deepEqual(
    replayed.records.map((r) => dec.decode(r)),
    Array.from({ length: 300 }, (_, i) => `r${i}`),
  );
});

test('appends made while a batch is being written join the next batch, and order holds across batches', async () => {
  const path = join(await tempDir(), 'log.bin');
  const w = new RecordLogWriter(path);
  const acked: number[] = [];
  const all: Promise<void>[] = [];
  let next = 0;
  const add = () => {
    const i = next++;
    all.push(w.append(enc.encode(`r${i}`)).then(() => void acked.push(i)));
  };
  add();
  // Each acknowledgement adds three more while the writer is busy with the following batch.
  for (let wave = 0; wave < 5; wave++) {
    await all[all.length - 1];
    for (let k = 0; k < 3; k++) add();
    await new Promise((r) => setImmediate(r));
    for (let k = 0; k < 3; k++) add();
  }
  await Promise.all(all);
  assert.deepEqual(
    acked,
    Array.from({ length: next }, (_, i) => i),
  );
  assert.ok(w.stats.batches < w.stats.records, `${w.stats.batches} batches for ${w.stats.records} records`);
  await w.close();
  const replayed = await replayFile(path, silentLogger);
  assert.deepEqual(
    replayed.records.map((r) => dec.decode(r)),
    Array.from({ length: next }, (_, i) => `r${i}`),
  );
});

test('an I/O failure rejects the batch and every later append; close rejects new appends', async () => {
  const broken = new RecordLogWriter(join(await tempDir(), 'no-such-dir', 'log.bin'));
  await assert.rejects(broken.append(enc.encode('a')), (e: unknown) => e instanceof StorageError && e.code === 'IO');
  await assert.rejects(
    broken.append(enc.encode('b')),
    (e: unknown) => e instanceof StorageError && e.code === 'WRITER_FAILED',
  );

  const w = new RecordLogWriter(join(await tempDir(), 'log.bin'));
  await w.append(enc.encode('ok'));
  await w.close();
  await assert.rejects(
    w.append(enc.encode('late')),
    (e: unknown) => e instanceof StorageError && e.code === 'WRITER_CLOSED',
  );
});

test('a writer given `after` does not write before that promise settles, and fails if it rejects', async () => {
  const dir = await tempDir();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const w = new RecordLogWriter(join(dir, 'log.bin'), { after: gate });
  const order: string[] = [];
  const p = w.append(enc.encode('x')).then(() => order.push('appended'));
  // Complete full appends on another file meanwhile: the gated writer must not even have created its file.
  const other = new RecordLogWriter(join(dir, 'other.bin'));
  for (let i = 0; i < 3; i++) await other.append(enc.encode(`o${i}`));
  await assert.rejects(stat(join(dir, 'log.bin')), { code: 'ENOENT' });
  order.push('released');
  release();
  await p;
  assert.deepEqual(order, ['released', 'appended']);

  const failing = new RecordLogWriter(join(dir, 'log2.bin'), {
    after: Promise.reject(new Error('previous log failed')),
  });
  await assert.rejects(
    failing.append(enc.encode('y')),
    (e: unknown) => e instanceof StorageError && e.code === 'WRITER_FAILED',
  );
});
