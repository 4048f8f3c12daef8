/**
 * FsJournal: the durable Journal of src/state/store.ts over record files in
 * one directory (DATA_DIR/state):
 *
 *   snapshot-<gen>.bin  two framed records: a JSON header {format, gen, created_at}
 *                       and the JSON snapshot; written to `.tmp`, fsynced, renamed
 *   log-<gen>.bin       framed JSON events appended after snapshot <gen>
 *                       (gen 0 has no snapshot: the empty state)
 *
 * Load: take the newest complete snapshot G (none: G = oldest log, normally 0)
 * and replay log-G, log-G+1, ... in order; torn or corrupt tails are cut off
 * (see record-log.ts). Leftover files of older generations are removed.
 *
 * Compaction from G to G+1, crash-safe at every step: `compact(snapshot)`
 * switches appends to log-(G+1) at once (its first write waits until log-G is
 * fully durable), then in the background: create log-(G+1) and fsync the
 * directory; write snapshot-(G+1).tmp, fsync, rename, fsync the directory;
 * only then delete log-G and snapshot-G. A crash before the rename leaves
 * snapshot-G + log-G + log-(G+1), which replay to the same state; after it,
 * snapshot-(G+1) + log-(G+1). A failed compaction is logged, never thrown;
 * it is retried after the log grows by another `compactBytes`.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import type { Journal, StateEvent } from '../state/store.ts';
import { encodeFrames } from './frame.ts';
import { RecordLogWriter, StorageError, fsyncDir, replaceFileDurably, replayFile, scanFile } from './record-log.ts';

export interface FsJournalOptions {
  /** Directory of the state files (created if missing). */
  dir: string;
  /** Log size in bytes above which `wantsCompaction()` answers true. */
  compactBytes: number;
  log: Logger;
}

const FILE = /^(snapshot|log)-(\d+)\.bin$/;
const SNAPSHOT_FORMAT = 'state-snapshot';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export const snapshotFileName = (gen: number) => `snapshot-${gen}.bin`;
export const logFileName = (gen: number) => `log-${gen}.bin`;

/** Serialise a snapshot file's content (header record + body record). */
export function encodeSnapshotFile(gen: number, snapshot: unknown, createdAt = new Date()): Uint8Array {
  const header = { format: SNAPSHOT_FORMAT, version: 1, gen, created_at: createdAt.toISOString() };
  return encodeFrames([encoder.encode(JSON.stringify(header)), encoder.encode(JSON.stringify(snapshot))]);
}

export class FsJournal implements Journal {
  private gen = 0;
  private writer: RecordLogWriter | undefined;
  private compacting = false;
  private compactAt: number;
  private compactions: Promise<void> = Promise.resolve();

  constructor(private readonly opts: FsJournalOptions) {
    this.compactAt = opts.compactBytes;
  }

  /** Current generation (the number of the log being appended to). */
  get generation(): number {
    return this.gen;
  }

  /** The active log writer's counters (batches, records), for tests and diagnostics. */
  get stats(): { batches: number; records: number } {
    return this.writer?.stats ?? { batches: 0, records: 0 };
  }

  async load(): Promise<{ snapshot: unknown | undefined; events: StateEvent[] }> {
    const { dir, log } = this.opts;
    await mkdir(dir, { recursive: true });
    const snapshots: number[] = [];
    const logs = new Set<number>();
    for (const name of await readdir(dir)) {
      if (name.endsWith('.tmp')) {
        await rm(join(dir, name), { force: true, recursive: true });
        continue;
      }
      const m = FILE.exec(name);
      if (!m) continue;
      if (m[1] === 'snapshot') snapshots.push(Number(m[2]));
      else logs.add(Number(m[2]));
    }
    snapshots.sort((a, b) => b - a);

    let base: number | undefined;
    let snapshot: unknown;
    for (const g of snapshots) {
      const read = await this.readSnapshot(g);
      if (read.ok) {
        base = g;
        snapshot = read.snapshot;
        break;
      }
      const aside = join(dir, `${snapshotFileName(g)}.corrupt`);
      await rename(join(dir, snapshotFileName(g)), aside);
      log.warn('state snapshot unreadable, set aside', { file: aside, reason: read.reason });
    }
    if (base === undefined) {
      base = logs.size > 0 ? Math.min(...logs) : 0;
      if (base > 0)
        log.warn('no complete state snapshot found; replaying the remaining logs only', { fromGeneration: base });
    }

    const events: StateEvent[] = [];
    let gen = base;
    let size = 0;
    for (let g = base; g === base || logs.has(g); g++) {
      const replayed = await replayFile(join(dir, logFileName(g)), log);
      gen = g;
      size = replayed.size;
      for (const record of replayed.records) {
        try {
          events.push(JSON.parse(decoder.decode(record)) as StateEvent);
        } catch (err) {
          log.error('state log record is not JSON; skipped', { file: logFileName(g), error: err });
        }
      }
    }
    await this.removeOlderThan(base, snapshots, [...logs]);
    this.gen = gen;
    this.writer = new RecordLogWriter(join(dir, logFileName(gen)), { size });
    log.info('state loaded', {
      dir,
      snapshotGeneration: snapshot === undefined ? null : base,
      generation: gen,
      events: events.length,
    });
    return { snapshot, events };
  }

  append(event: StateEvent): Promise<void> {
    if (!this.writer) return Promise.reject(new StorageError('WRITER_CLOSED', 'journal is not loaded'));
    return this.writer.append(encoder.encode(JSON.stringify(event)));
  }

  wantsCompaction(): boolean {
    return !this.compacting && this.writer !== undefined && this.writer.size >= this.compactAt;
  }

  compact(snapshot: unknown): Promise<void> {
    const old = this.writer;
    if (!old) return Promise.reject(new StorageError('WRITER_CLOSED', 'journal is not loaded'));
    const { dir, log } = this.opts;
    const oldGen = this.gen;
    const newGen = oldGen + 1;
    // Serialise now: the snapshot must be exactly the state at the call.
    const content = encodeSnapshotFile(newGen, snapshot);
    const oldDone = old.close().then(() => {
      if (old.failed) throw old.failed;
    });
    oldDone.catch(() => {});
    const next = new RecordLogWriter(join(dir, logFileName(newGen)), { after: oldDone });
    this.writer = next;
    this.gen = newGen;
    this.compacting = true;
    const task = this.compactions.then(async () => {
      try {
        await oldDone;
        await next.ensureOpen();
        await replaceFileDurably(join(dir, snapshotFileName(newGen)), content);
        await rm(join(dir, logFileName(oldGen)), { force: true });
        await rm(join(dir, snapshotFileName(oldGen)), { force: true });
        await fsyncDir(dir);
        this.compactAt = this.opts.compactBytes;
        log.info('state compacted', { generation: newGen, snapshotBytes: content.byteLength });
      } catch (err) {
        this.compactAt = next.size + this.opts.compactBytes;
        log.error('state compaction failed; the log keeps growing and compaction is retried later', {
          generation: newGen,
          error: err,
        });
      } finally {
        this.compacting = false;
      }
    });
    this.compactions = task;
    return task;
  }

  async close(): Promise<void> {
    await this.compactions;
    await this.writer?.close();
  }

  private async readSnapshot(gen: number): Promise<{ ok: true; snapshot: unknown } | { ok: false; reason: string }> {
    const scan = await scanFile(join(this.opts.dir, snapshotFileName(gen)));
    if (!scan) return { ok: false, reason: 'missing' };
    if (scan.problem || scan.records.length !== 2) return { ok: false, reason: scan.problem ?? 'wrong record count' };
    try {
      const header = JSON.parse(decoder.decode(scan.records[0])) as { format?: string; gen?: number };
      if (header.format !== SNAPSHOT_FORMAT || header.gen !== gen) return { ok: false, reason: 'bad header' };
      return { ok: true, snapshot: JSON.parse(decoder.decode(scan.records[1])) };
    } catch {
      return { ok: false, reason: 'not JSON' };
    }
  }

  /** Remove files of generations before `base` (left over by a crash during cleanup). */
  private async removeOlderThan(base: number, snapshots: number[], logs: number[]): Promise<void> {
    const stale = [
      ...snapshots.filter((g) => g < base).map(snapshotFileName),
      ...logs.filter((g) => g < base).map(logFileName),
    ];
    for (const name of stale) await rm(join(this.opts.dir, name), { force: true });
    if (stale.length > 0) {
      await fsyncDir(this.opts.dir);
      this.opts.log.info('removed state files of older generations', { files: stale });
    }
  }
}
