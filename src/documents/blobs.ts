/**
 * Stored binaries of queued documents: a large `binary_base64` is decoded while
 * the request is read into a file here (`<documents>/blobs/<name>.bin`), and the
 * queue record names the file instead of holding the Base64 text. The extraction
 * worker reads the file itself, so the binary is never held by the server thread.
 *
 * Durability: a blob is written and fsynced (and its directory fsynced) before the
 * queue record that names it is appended, so an acknowledged document always finds
 * its binary. A blob is removed once the engine commit containing its document
 * makes it unnecessary, or at once when its document is not queued; at start,
 * every blob that no replayed queue record names is removed (a crash mid-request).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { fsyncDir } from '../storage/record-log.ts';

/** A stored binary as a queue record names it. */
export interface BlobRef {
  name: string;
  /** Decoded size in bytes. */
  size: number;
}

const NAME = /^[0-9a-f]{32}\.bin$/;

/** The blob directory of a documents directory. */
export const blobsDir = (documentsDir: string) => join(documentsDir, 'blobs');
/** Writes are gathered up to this size (one system call per MiB). */
const WRITE_BYTES = 1024 * 1024;

export class BlobStore {
  private constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  static async open(dir: string, log: Logger): Promise<BlobStore> {
    await mkdir(dir, { recursive: true });
    return new BlobStore(dir, log);
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  /** A new, empty blob. */
  async create(): Promise<BlobWriter> {
    const name = `${randomBytes(16).toString('hex')}.bin`;
    return new BlobWriter(name, await open(this.path(name), 'wx'), this);
  }

  /** Removes a blob; a missing one is fine (already removed). */
  async remove(name: string): Promise<void> {
    try {
      await unlink(this.path(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log.warn('could not remove a stored binary', { file: name, error: err });
    }
  }

  /** Makes the creation of finished blobs durable (their directory entries). */
  syncDir(): Promise<void> {
    return fsyncDir(this.dir);
  }

  /** Removes every blob not named in `keep` (at start, before any request). */
  async keepOnly(keep: ReadonlySet<string>): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir)) {
      if (keep.has(name) || !(NAME.test(name) || name.endsWith('.tmp'))) continue;
      await this.remove(name);
      removed++;
    }
    return removed;
  }
}

/** Appends bytes to one blob; `finish` fsyncs it, `abort` removes it. */
export class BlobWriter {
  size = 0;
  private buffer = new Uint8Array(WRITE_BYTES);
  private used = 0;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly fh: FileHandle,
    private readonly store: BlobStore,
  ) {}

  async write(bytes: Uint8Array): Promise<void> {
    this.size += bytes.byteLength;
    if (this.used + bytes.byteLength <= this.buffer.byteLength) {
      this.buffer.set(bytes, this.used);
      this.used += bytes.byteLength;
      return;
    }
    await this.flush();
    if (bytes.byteLength >= this.buffer.byteLength) await this.fh.write(bytes);
    else {
      this.buffer.set(bytes);
      this.used = bytes.byteLength;
    }
  }

  /** Writes what is buffered, fsyncs and closes the file (its directory entry is the store's syncDir). */
  async finish(): Promise<BlobRef> {
    await this.flush();
    await this.fh.sync();
    await this.close();
    return { name: this.name, size: this.size };
  }

  async abort(): Promise<void> {
    await this.close().catch(() => undefined);
    await this.store.remove(this.name);
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.fh.write(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.buffer = new Uint8Array(0);
    await this.fh.close();
  }
}
