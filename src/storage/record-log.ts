/**
 * Append-only record files: the reader side replays a file and cuts off a
 * torn or corrupt tail (truncating to the last good record, with a warning;
 * corrupt bytes are kept aside in `<file>.corrupt-<offset>` for inspection);
 * the writer side appends framed records with group commit.
 *
 * Writer contract: `append(payload)` resolves only after the record is written
 * and fdatasync'ed. Records are written strictly in call order; appends that
 * arrive while a write+fsync is running are written together as one batch and
 * fsynced once. A writer may be given `after`, a promise its first write waits
 * for (used to order a new log file behind the previous one). After an I/O
 * error the writer is failed: that batch and every later append reject.
 */
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../log.ts';
import { encodeFrames, scanFrames, type ScanResult } from './frame.ts';

export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly code: 'WRITER_FAILED' | 'WRITER_CLOSED' | 'IO',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Make a directory entry change (create, rename, unlink) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Replace `path` with `content` crash-safely: written to `tmp` (default `<path>.tmp`), fsynced,
 * renamed over `path`, then the directory fsynced. A crash leaves the old or the new file, never a
 * mix; a leftover temporary file is the caller's to remove at start.
 */
export async function replaceFileDurably(
  path: string,
  content: Uint8Array | string,
  tmp = `${path}.tmp`,
): Promise<void> {
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dirname(path));
}

/** Read a framed file; undefined when it does not exist. Does not change the file. */
export async function scanFile(path: string): Promise<ScanResult | undefined> {
  let data: Uint8Array;
  try {
    data = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return scanFrames(data);
}

export interface ReplayedFile {
  records: Uint8Array[];
  /** Size of the file after any repair (where appends continue). */
  size: number;
  existed: boolean;
}

/** Replay a record file, cutting a torn or corrupt tail off (never fails because of one). */
export async function replayFile(path: string, log: Logger): Promise<ReplayedFile> {
  const scan = await scanFile(path);
  if (!scan) return { records: [], size: 0, existed: false };
  if (scan.problem) {
    const fileBytes = (await stat(path)).size;
    const discarded = fileBytes - scan.goodBytes;
    let keptAs: string | undefined;
    if (scan.problem === 'corrupt') {
      keptAs = `${path}.corrupt-${scan.goodBytes}`;
      const fh = await open(path, 'r');
      try {
        const tail = new Uint8Array(discarded);
        await fh.read(tail, 0, discarded, scan.goodBytes);
        await writeFile(keptAs, tail);
      } finally {
        await fh.close();
      }
    }
    const fh = await open(path, 'r+');
    try {
      await fh.truncate(scan.goodBytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    log.warn('state file tail cut off', {
      file: path,
      reason: scan.problem,
      keptRecords: scan.records.length,
      validBytes: scan.goodBytes,
      discardedBytes: discarded,
      ...(keptAs ? { discardedBytesKeptIn: keptAs } : {}),
    });
  }
  return { records: scan.records, size: scan.goodBytes, existed: true };
}

interface Pending {
  bytes: Uint8Array;
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface RecordLogWriterOptions {
  /** Current size of the file (after replay); appends go after it. Default 0. */
  size?: number;
  /** The first write waits for this; if it rejects, the writer fails. */
  after?: Promise<void>;
}

/** Group-committing appender of framed records to one file. */
export class RecordLogWriter {
  /** Counters for tests and diagnostics. */
  readonly stats = { batches: 0, records: 0 };
  private handle: FileHandle | undefined;
  private pending: Pending[] = [];
  private pendingBytes = 0;
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private closed = false;
  private written: number;
  private after: Promise<void> | undefined;

  constructor(
    readonly path: string,
    options: RecordLogWriterOptions = {},
  ) {
    this.written = options.size ?? 0;
    this.after = options.after;
  }

  /** Bytes written plus bytes waiting to be written. */
  get size(): number {
    return this.written + this.pendingBytes;
  }

  append(payload: Uint8Array): Promise<void> {
    if (this.failure)
      return Promise.reject(
        new StorageError('WRITER_FAILED', `log ${this.path} failed earlier: ${this.failure.message}`),
      );
    if (this.closed) return Promise.reject(new StorageError('WRITER_CLOSED', `log ${this.path} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ bytes: payload, resolve, reject });
      this.pendingBytes += payload.byteLength + 12;
      this.flushing ??= this.run();
    });
  }

  /** The error that failed this writer, if any. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Resolves when every append made so far has settled (durable or failed). Never rejects. */
  async drained(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Create the file now (and make its directory entry durable) without appending. */
  async ensureOpen(): Promise<void> {
    await this.openHandle();
  }

  /** Wait for pending appends, then close the file. Later appends reject. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drained();
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }

  private async openHandle(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    let created = false;
    try {
      await stat(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      created = true;
    }
    const fh = await open(this.path, 'a');
    if (created) {
      await fh.sync();
      await fsyncDir(dirname(this.path));
    }
    if (this.handle) {
      await fh.close();
      return this.handle;
    }
    this.handle = fh;
    return fh;
  }

  private async run(): Promise<void> {
    // Let the current synchronous burst of appends join the first batch.
    await Promise.resolve();
    try {
      if (this.after) await this.after;
      this.after = undefined;
    } catch (err) {
      this.fail(new StorageError('WRITER_FAILED', `log ${this.path}: previous log failed`, { cause: err }), []);
    }
    while (this.pending.length > 0 && !this.failure) {
      const batch = this.pending;
      this.pending = [];
      this.pendingBytes = 0;
      try {
        const fh = await this.openHandle();
        const buf = encodeFrames(batch.map((p) => p.bytes));
        let off = 0;
        while (off < buf.byteLength) {
          const { bytesWritten } = await fh.write(buf, off, buf.byteLength - off);
          off += bytesWritten;
        }
        await fh.datasync();
        this.written += buf.byteLength;
        this.stats.batches += 1;
        this.stats.records += batch.length;
        for (const p of batch) p.resolve();
      } catch (err) {
        this.fail(
          new StorageError('IO', `append to ${this.path} failed: ${(err as Error).message}`, { cause: err }),
          batch,
        );
      }
    }
    this.flushing = undefined;
  }

  private fail(err: Error, batch: Pending[]): void {
    this.failure ??= err;
    for (const p of [...batch, ...this.pending]) p.reject(err);
    this.pending = [];
    this.pendingBytes = 0;
  }
}
