/**
 * FsJournal: replay after restart, compaction into snapshot + fresh log, appends racing a
 * compaction, and every crash point of a compaction (simulated by leaving the files a crash
 * would leave): no acknowledged event is lost and none is replayed twice.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../src/log.ts';
import { FsJournal, encodeSnapshotFile, logFileName, snapshotFileName } from '../../../src/storage/fs-journal.ts';
import { RecordLogWriter } from '../../../src/storage/record-log.ts';
import { StateStore, type StatePart } from '../../../src/state/store.ts';
import { recordingLogger, tempDir } from '../../support/tmp.ts';

interface Seq {
  items: string[];
}
type SeqEvent = { type: 'seq.add'; v: string };
const seqPart: StatePart<Seq, SeqEvent> = {
  name: 'seq',
  create: () => ({ items: [] }),
  apply: (s, e) => void s.items.push(e.v),
  toJSON: (s) => ({ items: [...s.items] }),
  fromJSON: (j) => ({ items: [...(j as Seq).items] }),
};
const add = (v: string): SeqEvent => ({ type: 'seq.add', v });
const enc = new TextEncoder();

const journal = (dir: string, compactBytes = 1 << 20, log = silentLogger) => new FsJournal({ dir, compactBytes, log });

async function replay(dir: string): Promise<{ snapshot: unknown; values: string[] }> {
  const j = journal(dir);
  const { snapshot, events } = await j.load();
  await j.close();
  return { snapshot, values: events.map((e) => (e as SeqEvent).v) };
}

async function openItems(dir: string): Promise<string[]> {
  const store = await StateStore.open(journal(dir), [seqPart]);
  const items = [...store.get(seqPart).items];
  await store.close();
  return items;
}

/** A directory at generation 1: snapshot-1 = [a, b], log-1 = [c]. */
async function generationOne(): Promise<string> {
  const dir = await tempDir();
  const j = journal(dir);
  await j.load();
  await Promise.all([j.append(add('a')), j.append(add('b'))]);
  await j.compact({ seq: { items: ['a', 'b'] } });
  await j.append(add('c'));
  await j.close();
  assert.deepEqual((await readdir(dir)).sort(), ['log-1.bin', 'snapshot-1.bin']);
  return dir;
}

async function writeLog(path: string, values: string[]): Promise<void> {
  const w = new RecordLogWriter(path);
  for (const v of values) await w.append(enc.encode(JSON.stringify(add(v))));
  await w.close();
}

test('events survive a restart; a fresh directory starts empty at generation 0', async () => {
  const dir = await tempDir();
  assert.deepEqual(await replay(dir), { snapshot: undefined, values: [] });
  const j = journal(dir);
  await j.load();
  for (const v of ['1', '2', '3']) await j.append(add(v));
  await j.close();
  assert.deepEqual(await replay(dir), { snapshot: undefined, values: ['1', '2', '3'] });
});

test('a StateStore over a small compaction threshold compacts repeatedly and reopens to the same state', async () => {
  const dir = await tempDir();
  const store = await StateStore.open(journal(dir, 512), [seqPart]);
  const expected: string[] = [];
  for (let round = 0; round < 10; round++) {
    const batch = Array.from({ length: 20 }, (_, i) => `v${round}-${i}`);
    expected.push(...batch);
    await Promise.all(batch.map((v) => store.commit(add(v))));
  }
  await store.close();
  const files = (await readdir(dir)).sort();
  const gens = files.map((f) => Number(/-(\d+)\.bin$/.exec(f)?.[1]));
  assert.ok(gens[0] > 0, `compacted at least once: ${files.join(', ')}`);
  assert.ok(
    files.length <= 2 && gens.every((g) => g === gens[0]),
    `only the newest generation is kept: ${files.join(', ')}`,
  );
  assert.deepEqual(await openItems(dir), expected);
});

test('appends made right after compact() go to the new log and follow the snapshot', async () => {
  const dir = await tempDir();
  const j = journal(dir);
  await j.load();
  const acks = [j.append(add('a')), j.append(add('b'))];
  const compaction = j.compact({ seq: { items: ['a', 'b'] } });
  acks.push(j.append(add('c')), j.append(add('d')));
  await Promise.all([...acks, compaction]);
  await j.close();
  assert.deepEqual((await readdir(dir)).sort(), ['log-1.bin', 'snapshot-1.bin']);
  assert.deepEqual(await replay(dir), { snapshot: { seq: { items: ['a', 'b'] } }, values: ['c', 'd'] });
});

test('crash while writing the next snapshot: the old snapshot and both logs replay everything', async () => {
  const dir = await generationOne();
  await writeLog(join(dir, logFileName(2)), ['d']);
  const full = encodeSnapshotFile(2, { seq: { items: ['a', 'b', 'c'] } });
  await writeFile(join(dir, `${snapshotFileName(2)}.tmp`), full.subarray(0, full.length - 5));
  assert.deepEqual(await openItems(dir), ['a', 'b', 'c', 'd']);
  assert.ok(!(await readdir(dir)).some((n) => n.endsWith('.tmp')), 'the partial snapshot is removed');
});

test('crash right after creating the next log: nothing is lost and appends continue there', async () => {
  const dir = await generationOne();
  await writeFile(join(dir, logFileName(2)), new Uint8Array());
  const store = await StateStore.open(journal(dir), [seqPart]);
  assert.deepEqual(store.get(seqPart).items, ['a', 'b', 'c']);
  await store.commit(add('e'));
  await store.close();
  assert.deepEqual(await openItems(dir), ['a', 'b', 'c', 'e']);
});

test('crash after the new snapshot is complete but before old files are deleted: the new one wins, old files go', async () => {
  const dir = await generationOne();
  await writeLog(join(dir, logFileName(2)), ['d']);
  await writeFile(join(dir, snapshotFileName(2)), encodeSnapshotFile(2, { seq: { items: ['a', 'b', 'c'] } }));
  assert.deepEqual(await replay(dir), { snapshot: { seq: { items: ['a', 'b', 'c'] } }, values: ['d'] });
  assert.deepEqual((await readdir(dir)).sort(), ['log-2.bin', 'snapshot-2.bin']);
  assert.deepEqual(await openItems(dir), ['a', 'b', 'c', 'd']);
});

test('an unreadable newest snapshot is set aside and the previous generation is replayed, with a warning', async () => {
  const dir = await generationOne();
  await writeLog(join(dir, logFileName(2)), ['d']);
  const full = encodeSnapshotFile(2, { seq: { items: ['a', 'b', 'c'] } });
  await writeFile(join(dir, snapshotFileName(2)), full.subarray(0, 20));
  const { log, records } = recordingLogger();
  const store = await StateStore.open(journal(dir, 1 << 20, log), [seqPart]);
  assert.deepEqual(store.get(seqPart).items, ['a', 'b', 'c', 'd']);
  await store.close();
  assert.ok(records.some((r) => r.level === 'warn' && r.msg === 'state snapshot unreadable, set aside'));
  assert.ok((await readdir(dir)).includes('snapshot-2.bin.corrupt'));
});

test('a failed compaction is logged, not thrown; writes go on and nothing is lost', async () => {
  const dir = await tempDir();
  await mkdir(join(dir, `${snapshotFileName(1)}.tmp`), { recursive: true }); // writing the snapshot will fail
  const { log, records } = recordingLogger();
  const j = new FsJournal({ dir, compactBytes: 1 << 20, log });
  await j.load(); // removes the stray .tmp directory...
  await mkdir(join(dir, `${snapshotFileName(1)}.tmp`)); // ...so put it back
  await j.append(add('a'));
  await j.compact({ seq: { items: ['a'] } });
  await j.append(add('b'));
  await j.close();
  assert.ok(records.some((r) => r.level === 'error' && r.msg.startsWith('state compaction failed')));
  assert.deepEqual(await openItems(dir), ['a', 'b']);
});
