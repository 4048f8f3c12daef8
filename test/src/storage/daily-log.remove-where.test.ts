/**
 * Removing records from the day-partitioned log (the right to erasure): matching records leave
 * every day file, the others stay in order, appends continue in a rewritten file, the order of
 * appends and removals is kept, and a temporary file left by a crash is removed at the next start.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../src/log.ts';
import { DailyLog } from '../../../src/storage/daily-log.ts';
import { scanFile } from '../../../src/storage/record-log.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
type Rec = { at: string; who: string; n: number };

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'daily-log-remove-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The records of a day file as written on disk. */
async function onDisk(dir: string, day: string): Promise<Rec[]> {
  const scan = await scanFile(join(dir, `${day}.log`));
  return (scan?.records ?? []).map((r) => JSON.parse(new TextDecoder().decode(r)) as Rec);
}

test('matching records leave every day file; the others stay in order; appends go on after', () =>
  withDir(async (dir) => {
    let now = T0;
    const log = new DailyLog<Rec>({ dir, log: silentLogger, now: () => now, retentionDays: 0 });
    for (let n = 0; n < 6; n++) {
      now = T0 + Math.floor(n / 3) * DAY;
      await log.append({ at: new Date(now).toISOString(), who: n % 2 === 0 ? 'ada' : 'eve', n });
    }
    assert.equal(await log.removeWhere((r) => r.who === 'ada'), 3);
    assert.deepEqual(
      (await onDisk(dir, '2026-03-01')).map((r) => r.n),
      [1],
    );
    assert.deepEqual(
      (await onDisk(dir, '2026-03-02')).map((r) => r.n),
      [3, 5],
    );
    assert.equal(await log.removeWhere((r) => r.who === 'ada'), 0, 'nothing left to remove');
    await log.append({ at: new Date(now).toISOString(), who: 'ada', n: 6 });
    assert.deepEqual(
      (await onDisk(dir, '2026-03-02')).map((r) => r.n),
      [3, 5, 6],
    );
    await log.close();
    const reopened = new DailyLog<Rec>({ dir, log: silentLogger, now: () => now, retentionDays: 0 });
    const all = await reopened.query({ fromMs: 0, toMs: now }, () => true, 100);
    assert.deepEqual(
      all.map((r) => r.n),
      [6, 5, 3, 1],
    );
    await reopened.close();
  }));

test('appends made before a removal are subject to it; appends made after it are kept', () =>
  withDir(async (dir) => {
    const log = new DailyLog<Rec>({ dir, log: silentLogger, now: () => T0, retentionDays: 0 });
    const at = new Date(T0).toISOString();
    const early = Array.from({ length: 50 }, (_, n) => log.append({ at, who: 'ada', n }));
    const removed = log.removeWhere((r) => r.who === 'ada');
    const late = Array.from({ length: 50 }, (_, n) => log.append({ at, who: 'ada', n: 100 + n }));
    await Promise.all([...early, ...late]);
    assert.equal(await removed, 50);
    const left = await onDisk(dir, '2026-03-01');
    assert.deepEqual(
      left.map((r) => r.n),
      Array.from({ length: 50 }, (_, n) => 100 + n),
    );
    await log.close();
  }));

test('a temporary file left by a crash during a rewrite is removed at the next start', () =>
  withDir(async (dir) => {
    const first = new DailyLog<Rec>({ dir, log: silentLogger, now: () => T0, retentionDays: 0 });
    await first.append({ at: new Date(T0).toISOString(), who: 'eve', n: 1 });
    await first.close();
    await writeFile(join(dir, '2026-03-01.log.tmp'), 'half a rewrite');
    const second = new DailyLog<Rec>({ dir, log: silentLogger, now: () => T0, retentionDays: 0 });
    assert.deepEqual(
      (await second.query({ fromMs: 0, toMs: T0 }, () => true, 10)).map((r) => r.n),
      [1],
    );
    assert.deepEqual(await readdir(dir), ['2026-03-01.log']);
    await second.close();
  }));
