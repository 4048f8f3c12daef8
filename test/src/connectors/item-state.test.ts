/**
 * The item state file: entries survive a reopen, a torn tail is cut, another datasource
 * incarnation starts empty, another settings digest forgets versions but keeps keys, and
 * compaction keeps the live entries.
 */
import assert from 'node:assert/strict';
import { appendFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { ItemState } from '../../../src/connectors/item-state.ts';
import { silentLogger } from '../../../src/log.ts';
import { tempDir } from '../../support/connectors.ts';

const header = { ds: 'drive', inc: '2026-01-01T00:00:00.000Z', cfg: 'abc' };

test('entries survive a reopen; a torn tail is cut', async () => {
  const dir = await tempDir('item-state-');
  try {
    const s = await ItemState.open(dir, header, silentLogger);
    await s.set([
      { key: 'a.txt', version: '1', failed: false, seen: 1 },
      { key: 'b.txt', version: '2', memo: { etag: 'x' }, failed: true, seen: 1 },
    ]);
    await s.delete(['a.txt']);
    await s.set([{ key: 'c.txt', version: '3', failed: false, seen: 1 }]);
    await s.close();
    await appendFile(join(dir, 'items.bin'), Buffer.from([200, 0, 0, 0, 1, 2, 3]));
    const r = await ItemState.open(dir, header, silentLogger);
    assert.equal(r.size, 2);
    assert.deepEqual(r.previous('b.txt'), { version: '2', memo: { etag: 'x' }, failed: true });
    assert.deepEqual(r.previous('c.txt'), { version: '3', failed: false });
    assert.equal(r.previous('a.txt'), undefined);
    await r.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('another incarnation starts empty; another settings digest marks every entry for a retry', async () => {
  const dir = await tempDir('item-state-');
  try {
    const s = await ItemState.open(dir, header, silentLogger);
    await s.set([{ key: 'a.txt', version: '1', failed: false, seen: 1 }]);
    await s.close();
    const changed = await ItemState.open(dir, { ...header, cfg: 'def' }, silentLogger);
    assert.equal(changed.size, 1, 'keys are kept for deletions');
    assert.deepEqual(changed.previous('a.txt'), { version: '1', failed: true }, 'to be read again');
    assert.deepEqual(changed.unseen(2), ['a.txt']);
    await changed.close();
    const again = await ItemState.open(dir, { ...header, cfg: 'def' }, silentLogger);
    assert.equal(again.get('a.txt')?.f, true, 'the mark is durable');
    await again.close();
    const recreated = await ItemState.open(dir, { ...header, inc: '2026-02-01T00:00:00.000Z' }, silentLogger);
    assert.equal(recreated.size, 0);
    await recreated.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('compaction at open keeps the live entries and shrinks the file', async () => {
  const dir = await tempDir('item-state-');
  try {
    const s = await ItemState.open(dir, header, silentLogger);
    for (let round = 0; round < 5; round++)
      await s.set(
        Array.from({ length: 500 }, (_, i) => ({ key: `f${i}`, version: String(round), failed: false, seen: 1 })),
      );
    await s.close();
    const before = (await stat(join(dir, 'items.bin'))).size;
    const r = await ItemState.open(dir, header, silentLogger);
    assert.equal(r.size, 500);
    assert.equal(r.previous('f7')?.version, '4');
    await r.close();
    assert.ok((await stat(join(dir, 'items.bin'))).size < before / 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
