/**
 * An append-only event log partitioned by UTC day: one framed record file per
 * day (`YYYY-MM-DD.log`) under a directory, JSON records, group-committed and
 * fsynced before `append` resolves (record-log.ts). Retention deletes whole
 * days older than the limit. Reads stream day by day, newest first, so a page
 * of recent records never loads the whole history.
 *
 * Used for the audit log and search analytics: records that must survive a
 * crash once acknowledged, are only ever added, and age out by date.
 * At start, a torn tail of a day file (kill -9 mid-append) is cut off.
 *
 * `removeWhere` is the one exception to "only ever added": it physically
 * removes matching records (a person's right to erasure), rewriting each
 * affected day file crash-safely (temporary file, fsync, rename; a crash
 * leaves the old or the new file, and a leftover temporary file is removed at
 * the next start). Appends and removals are ordered: an append made before a
 * removal started is written first and is subject to it.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { encodeFrames } from './frame.ts';
import { RecordLogWriter, replaceFileDurably, replayFile, scanFile } from './record-log.ts';

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.log$/;
const TEMP_FILE = /^\d{4}-\d{2}-\d{2}\.log\.tmp$/;
const DAY_MS = 86_400_000;

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export interface DailyLogOptions {
  dir: string;
  log: Logger;
  now: () => number;
  /** Days kept (the current one included); 0 keeps everything. */
  retentionDays: number;
}

export class DailyLog<T extends { at: string }> {
  private writer: RecordLogWriter | undefined;
  private writerDay = '';
  private readonly ready: Promise<void>;
  /** The last queued change (an append's writer choice, or a removal): changes run one at a time. */
  private tail: Promise<unknown> = Promise.resolve();
  /** The closing of the previous day's writer (its last appends may still be in flight). */
  private closing: Promise<void> | undefined;

  constructor(private readonly options: DailyLogOptions) {
    this.ready = this.open();
  }

  private async open(): Promise<void> {
    await mkdir(this.options.dir, { recursive: true });
    for (const name of await readdir(this.options.dir)) {
      if (TEMP_FILE.test(name)) await rm(join(this.options.dir, name), { force: true });
    }
    const today = dayOf(this.options.now());
    // Only the newest day file can have a torn tail (older days were closed by a later append).
    const newest = (await this.days())[0];
    if (newest !== undefined) {
      const { size } = await replayFile(join(this.options.dir, `${newest}.log`), this.options.log);
      if (newest === today) {
        this.writerDay = today;
        this.writer = new RecordLogWriter(join(this.options.dir, `${today}.log`), { size });
      }
    }
    await this.prune();
  }

  private closeWriter(): Promise<void> | undefined {
    const old = this.writer;
    return old ? old.close() : undefined;
  }

  /** Day names of the files present, newest first. */
  private async days(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.options.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names
      .map((n) => DAY_FILE.exec(n)?.[1])
      .filter((d): d is string => d !== undefined)
      .sort()
      .reverse();
  }

  /** Run `change` after every change queued before it (the ready state included). */
  private serial<R>(change: () => Promise<R>): Promise<R> {
    const run = this.tail.then(() => this.ready).then(change);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The writer of `day`'s file, switching files when the day changed. */
  private async writerFor(day: string): Promise<RecordLogWriter> {
    if (day !== this.writerDay || !this.writer) {
      const size = (await scanFile(join(this.options.dir, `${day}.log`)))?.goodBytes ?? 0;
      this.writerDay = day;
      const previous = this.closeWriter();
      this.closing = previous?.catch(() => undefined);
      this.writer = new RecordLogWriter(join(this.options.dir, `${day}.log`), { size, after: previous });
      void this.prune();
    }
    return this.writer;
  }

  /** Append one record (its `at` is set by the caller); resolves once durable. */
  async append(record: T): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(record));
    // Only the writer choice is serialised; the write itself joins the writer's group commit.
    const queued = await this.serial(async () => {
      const writer = await this.writerFor(dayOf(Date.parse(record.at)));
      return { durable: writer.append(bytes) };
    });
    await queued.durable;
  }

  /**
   * Physically remove the records matching `match` from every day file; answers how many were
   * removed. Each changed file is replaced crash-safely; unchanged files are not written.
   */
  removeWhere(match: (r: T) => boolean): Promise<number> {
    return this.serial(async () => {
      await this.closing;
      await this.writer?.drained();
      let removed = 0;
      for (const day of await this.days()) {
        const path = join(this.options.dir, `${day}.log`);
        const records = (await scanFile(path))?.records ?? [];
        const kept = records.filter((r) => !match(JSON.parse(new TextDecoder().decode(r)) as T));
        if (kept.length === records.length) continue;
        if (day === this.writerDay && this.writer) {
          await this.writer.close();
          this.writer = undefined;
          this.writerDay = '';
        }
        await replaceFileDurably(path, encodeFrames(kept));
        removed += records.length - kept.length;
      }
      return removed;
    });
  }

  /**
   * Records from `fromMs` to `toMs` (inclusive, by their day and `at`), newest first, that pass
   * `keep`; stops after `limit`. Reads one day file at a time.
   */
  async query(range: { fromMs: number; toMs: number }, keep: (r: T) => boolean, limit: number): Promise<T[]> {
    await this.ready;
    await this.tail;
    await this.writer?.drained();
    const first = dayOf(range.fromMs);
    const last = dayOf(range.toMs);
    const out: T[] = [];
    for (const day of await this.days()) {
      if (day > last) continue;
      if (day < first) break;
      const scan = await scanFile(join(this.options.dir, `${day}.log`));
      const records = (scan?.records ?? []).map((r) => JSON.parse(new TextDecoder().decode(r)) as T);
      for (let i = records.length - 1; i >= 0; i--) {
        const at = Date.parse(records[i].at);
        if (at < range.fromMs || at > range.toMs || !keep(records[i])) continue;
        out.push(records[i]);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  /** Every record of the range, oldest first, day by day (export). */
  async *stream(range: { fromMs: number; toMs: number }): AsyncGenerator<T> {
    await this.ready;
    await this.tail;
    await this.writer?.drained();
    const days = (await this.days()).reverse();
    for (const day of days) {
      if (day < dayOf(range.fromMs) || day > dayOf(range.toMs)) continue;
      const scan = await scanFile(join(this.options.dir, `${day}.log`));
      for (const r of scan?.records ?? []) {
        const record = JSON.parse(new TextDecoder().decode(r)) as T;
        const at = Date.parse(record.at);
        if (at >= range.fromMs && at <= range.toMs) yield record;
      }
    }
  }

  /** Resolves when every append made so far has settled (durable or failed). */
  async drained(): Promise<void> {
    await this.ready;
    await this.tail;
    await this.closing;
    await this.writer?.drained();
  }

  /** Delete the day files older than the retention. */
  async prune(): Promise<number> {
    const keep = this.options.retentionDays;
    if (keep <= 0) return 0;
    const oldest = dayOf(this.options.now() - (keep - 1) * DAY_MS);
    let removed = 0;
    for (const day of await this.days()) {
      if (day >= oldest || day === this.writerDay) continue;
      await rm(join(this.options.dir, `${day}.log`), { force: true });
      removed++;
    }
    return removed;
  }

  async close(): Promise<void> {
    await this.ready;
    await this.tail;
    await this.ready;
    await this.writer?.close();
  }
}
