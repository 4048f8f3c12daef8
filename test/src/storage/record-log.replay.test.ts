/** Replay of record files: every acknowledged record comes back; torn, corrupt and garbage tails are cut off with a warning. */
import assert from 'node:assert/strict';
import { appendFile, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { RecordLogWriter, replayFile } from '../../../src/storage/record-log.ts';
import { recordingLogger, tempDir } from '../../support/tmp.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const texts = (records: Uint8Array[]) => records.map((r) => dec.decode(r));

async function writeRecords(path: string, items: string[]): Promise<void> {
  const w = new RecordLogWriter(path);
  await Promise.all(items.map((s) => w.append(enc.encode(s))));
  await w.close();
}

test('a missing file replays as empty; a written file replays every record in order', async () => {
  const dir = await tempDir();
  const { log, records } = recordingLogger();
  const missing = await replayFile(join(dir, 'none.bin'), log);
  assert.deepEqual(missing, { records: [], size: 0, existed: false });
  const path = join(dir, 'log.bin');
  await writeRecords(path, ['a', 'bb', 'ccc']);
  const replayed = await replayFile(path, log);
  assert.deepEqual(texts(replayed.records), ['a', 'bb', 'ccc']);
  assert.equal(replayed.size, (await stat(path)).size);
  assert.equal(records.filter((r) => r.level === 'warn').length, 0);
});

test('a torn tail is truncated to the last good record, warned about, and appends continue after it', async () => {
  const dir = await tempDir();
  const path = join(dir, 'log.bin');
  await writeRecords(path, ['one', 'two', 'three']);
  const full = (await stat(path)).size;
  await truncate(path, full - 2);
  const { log, records } = recordingLogger();
  const replayed = await replayFile(path, log);
  assert.deepEqual(texts(replayed.records), ['one', 'two']);
  assert.equal((await stat(path)).size, replayed.size);
  const warn = records.find((r) => r.msg === 'state file tail cut off');
  assert.equal(warn?.reason, 'torn');
  assert.equal(warn?.discardedBytes, full - 2 - replayed.size);

  const w = new RecordLogWriter(path, { size: replayed.size });
  await w.append(enc.encode('four'));
  await w.close();
  assert.deepEqual(texts((await replayFile(path, log)).records), ['one', 'two', 'four']);
});

test('a corrupt tail is cut off and its bytes are kept aside for inspection', async () => {
  const dir = await tempDir();
  const path = join(dir, 'log.bin');
  await writeRecords(path, ['alpha', 'beta', 'gamma']);
  const bytes = await readFile(path);
  bytes[bytes.length - 2] ^= 0xff; // inside the payload of "gamma"
  await writeFile(path, bytes);
  const { log, records } = recordingLogger();
  const replayed = await replayFile(path, log);
  assert.deepEqual(texts(replayed.records), ['alpha', 'beta']);
  const warn = records.find((r) => r.msg === 'state file tail cut off');
  assert.equal(warn?.reason, 'corrupt');
  const kept = await readFile(warn?.discardedBytesKeptIn);
  assert.deepEqual(new Uint8Array(kept), new Uint8Array(bytes.subarray(replayed.size)));
  assert.ok((await readdir(dir)).some((n) => n.startsWith('log.bin.corrupt-')));
});

test('garbage appended after good records is cut off; a second replay finds a clean file', async () => {
  const dir = await tempDir();
  const path = join(dir, 'log.bin');
  await writeRecords(path, ['x', 'y']);
  const good = (await stat(path)).size;
  await appendFile(path, Buffer.from('this is not a frame at all, just garbage bytes'));
  const first = recordingLogger();
  assert.deepEqual(texts((await replayFile(path, first.log)).records), ['x', 'y']);
  assert.equal((await stat(path)).size, good);
  const second = recordingLogger();
  assert.deepEqual(texts((await replayFile(path, second.log)).records), ['x', 'y']);
  assert.equal(second.records.filter((r) => r.level === 'warn').length, 0);
});
