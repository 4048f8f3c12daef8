/**
 * The day-partitioned event log: records land in the file of their UTC day, queries read newest
 * first across days with a limit, retention removes whole old days, and a torn tail left by a
 * crash is cut off at the next start without losing the records before it.
 */
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../src/log.ts';
import { DailyLog } from '../../../src/storage/daily-log.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'daily-log-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('records go to their day; queries read newest first across days, with a range and a limit', () =>
  withDir(async (dir) => {
    let now = T0;
    const log = new DailyLog<{ at: string; n: number }>({ dir, log: silentLogger, now: () => now, retentionDays: 0 });
    for (let n = 0; n < 6; n++) {
      now = T0 + n * (DAY / 2);
      await log.append({ at: new Date(now).toISOString(), n });
    }
    assert.deepEqual((await readdir(dir)).sort(), [
      '2026-03-01.log',
      '2026-03-02.log',
      '2026-03-03.log',
      '2026-03-04.log',
    ]);
    const all = await log.query({ fromMs: 0, toMs: now }, () => true, 100);
    assert.deepEqual(
      all.map((r) => r.n),
      [5, 4, 3, 2, 1, 0],
    );
    const some = await log.query({ fromMs: T0 + DAY / 2, toMs: T0 + 2 * DAY }, (r) => r.n % 2 === 1, 100);
    assert.deepEqual(
      some.map((r) => r.n),
      [3, 1],
    );
    assert.deepEqual(
      (await log.query({ fromMs: 0, toMs: now }, () => true, 2)).map((r) => r.n),
      [5, 4],
    );
    const streamed: number[] = [];
    for await (const r of log.stream({ fromMs: 0, toMs: now })) streamed.push(r.n);
    assert.deepEqual(streamed, [0, 1, 2, 3, 4, 5]);
    await log.close();
  }));

test('retention removes whole days older than the limit', () =>
  withDir(async (dir) => {
    let now = T0;
    const log = new DailyLog<{ at: string }>({ dir, log: silentLogger, now: () => now, retentionDays: 2 });
    for (let d = 0; d < 5; d++) {
      now = T0 + d * DAY;
      await log.append({ at: new Date(now).toISOString() });
    }
    await log.prune();
    assert.deepEqual((await readdir(dir)).sort(), ['2026-03-04.log', '2026-03-05.log']);
    await log.close();
  }));

test('a torn tail from a crash is cut off at start; the records before it stay, new ones follow', () =>
  withDir(async (dir) => {
    const now = () => T0;
    const first = new DailyLog<{ at: string; n: number }>({ dir, log: silentLogger, now, retentionDays: 0 });
    await first.append({ at: new Date(T0).toISOString(), n: 1 });
    await first.append({ at: new Date(T0).toISOString(), n: 2 });
    await first.close();
    await appendFile(join(dir, '2026-03-01.log'), new Uint8Array([200, 0, 0, 0, 1, 2, 3]));
    const second = new DailyLog<{ at: string; n: number }>({ dir, log: silentLogger, now, retentionDays: 0 });
    await second.append({ at: new Date(T0).toISOString(), n: 3 });
    const records = await second.query({ fromMs: 0, toMs: T0 }, () => true, 10);
    assert.deepEqual(
      records.map((r) => r.n),
      [3, 2, 1],
    );
    await second.close();
  }));
