/**
 * FsDirectory: a Directory on the local file system (node:fs). New files are written
 * under their final name with O_EXCL and O_DSYNC (each write returns once its data and the
 * file size are on disk, like write + fdatasync); `syncDirectory` fsyncs the directory so
 * creations and deletions survive a crash.
 *
 * A commit is a chain of dependent file steps, and on a busy event loop every asynchronous
 * step waits its turn behind other work (tens of ms each under a bulk push). So the chain is
 * kept short: O_DSYNC saves the separate fsync, closes are not waited for (durability does not
 * depend on them), the directory and the appended logs stay open between calls.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineError } from '../errors.ts';
import { sharedBytes } from './shared-bytes.ts';
import { FILE_NAME, type Directory, type DirectoryLock } from './types.ts';

const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_DSYNC } = constants;
/** New data files: exclusive create, synchronous data writes. */
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_DSYNC;
/** Logs: append, synchronous data writes. */
const APPEND_FLAGS = O_WRONLY | O_CREAT | O_APPEND | O_DSYNC;

export class FsDirectory implements Directory {
  private closed = false;
  /** Open handle of the directory itself (for syncDirectory). */
  private dirHandle: Promise<Handle> | null = null;
  /** Open handles of appended logs, by name (closed when the log is deleted, the lock released or the directory closed). */
  private readonly logs = new Map<string, Promise<Handle>>();

  private constructor(readonly path: string) {}

  /** Opens (creating when absent) the directory at `path`. */
  static async open(path: string): Promise<FsDirectory> {
    try {
      await mkdir(path, { recursive: true });
    } catch (err) {
      throw ioError(`cannot create directory ${path}`, err);
    }
    return new FsDirectory(path);
  }

  async listAll(): Promise<string[]> {
    this.check();
    try {
      const entries = await readdir(this.path, { withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => e.name);
    } catch (err) {
      throw ioError(`cannot list ${this.path}`, err);
    }
  }

  /** The file's bytes in shared memory (segment images are shared with other threads, see shared-bytes.ts). */
  async readFile(name: string): Promise<Uint8Array> {
    this.check(name);
    let fh;
    try {
      fh = await open(join(this.path, name), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new EngineError('NOT_FOUND', `file not found: ${name}`);
      throw ioError(`cannot read ${name}`, err);
    }
    try {
      // A log may grow meanwhile: the bytes present at stat time are read (its tail is checked by checksums).
      const out = sharedBytes((await fh.stat()).size);
      let off = 0;
      while (off < out.length) {
        const { bytesRead } = await fh.read(out, off, Math.min(out.length - off, 1 << 30), off);
        if (bytesRead === 0) throw new Error(`${name} shrank while being read`);
        off += bytesRead;
      }
      return out;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new EngineError('NOT_FOUND', `file not found: ${name}`);
      throw ioError(`cannot read ${name}`, err);
    } finally {
      void fh.close().catch(() => undefined);
    }
  }

  async writeFile(name: string, chunks: readonly Uint8Array[]): Promise<void> {
    this.check(name);
    let fh;
    try {
      fh = await open(join(this.path, name), CREATE_FLAGS, 0o666);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new EngineError('EXISTS', `file exists: ${name}`);
      throw ioError(`cannot create ${name}`, err);
    }
    try {
      const list = chunks.filter((c) => c.length > 0);
      for (let i = 0; i < list.length; i += 512) await writeAll(fh, list.slice(i, i + 512));
    } catch (err) {
      throw ioError(`cannot write ${name}`, err);
    } finally {
      fh.close().catch(() => undefined);
    }
  }

  async appendFile(name: string, data: Uint8Array): Promise<void> {
    this.check(name);
    let handle = this.logs.get(name);
    if (!handle) {
      handle = open(join(this.path, name), APPEND_FLAGS, 0o666);
      this.logs.set(name, handle);
    }
    try {
      await writeAll(await handle, [data]);
    } catch (err) {
      // a failed handle is not reused
      if (this.logs.get(name) === handle) this.logs.delete(name);
      void closeLater(handle);
      throw ioError(`cannot append to ${name}`, err);
    }
  }

  async syncDirectory(): Promise<void> {
    this.check();
    const handle = (this.dirHandle ??= open(this.path, 'r'));
    try {
      await (await handle).sync();
    } catch (err) {
      if (this.dirHandle === handle) this.dirHandle = null;
      void closeLater(handle);
      throw ioError(`cannot sync directory ${this.path}`, err);
    }
  }

  async deleteFile(name: string): Promise<void> {
    this.check(name);
    const log = this.logs.get(name);
    if (log) {
      this.logs.delete(name);
      await closeLater(log);
    }
    try {
      await unlink(join(this.path, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw ioError(`cannot delete ${name}`, err);
    }
  }

  /**
   * Lock file `write.lock` created exclusively with the holder's pid; a lock whose pid is no
   * longer alive (crash) is replaced. One holder per path within this process as well.
   */
  async lock(): Promise<DirectoryLock> {
    this.check();
    const file = join(this.path, LOCK_FILE);
    if (heldPaths.has(file))
      throw new EngineError('LOCKED', `index directory ${this.path} is already open for writing`);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fh = await open(file, 'wx');
        try {
          await fh.writeFile(String(process.pid));
          await fh.sync();
        } finally {
          await fh.close();
        }
        heldPaths.add(file);
        let held = true;
        return {
          release: async () => {
            if (!held) return;
            held = false;
            heldPaths.delete(file);
            await this.closeHandles(); // the writer is done: no handle outlives it
            await unlink(file).catch(() => undefined);
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(`cannot create ${file}`, err);
        const pid = Number(await readFile(file, 'utf8').catch(() => ''));
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
          throw new EngineError('LOCKED', `index directory ${this.path} is locked by process ${pid}`);
        }
        await unlink(file).catch(() => undefined); // stale: its holder is gone
      }
    }
    throw new EngineError('LOCKED', `index directory ${this.path} is locked`);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.closeHandles();
  }

  /** Closes the cached directory and log handles (they reopen on next use). */
  private async closeHandles(): Promise<void> {
    const handles = [...this.logs.values(), ...(this.dirHandle ? [this.dirHandle] : [])];
    this.logs.clear();
    this.dirHandle = null;
    await Promise.all(handles.map(closeLater));
  }

  private check(name?: string): void {
    if (this.closed) throw new EngineError('CLOSED', 'directory is closed');
    if (name !== undefined && !FILE_NAME.test(name)) throw new EngineError('IO', `invalid file name: ${name}`);
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

/** Closes a cached handle once it is open; errors are ignored (the handle is being dropped). */
function closeLater(handle: Promise<Handle>): Promise<void> {
  return handle.then((fh) => fh.close()).catch(() => undefined);
}

const LOCK_FILE = 'write.lock';
const heldPaths = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function writeAll(fh: Handle, chunks: Uint8Array[]): Promise<void> {
  let total = 0;
  for (const c of chunks) total += c.length;
  let written = 0;
  let list = chunks;
  while (written < total) {
    const { bytesWritten } = await fh.writev(list);
    written += bytesWritten;
    if (written < total) list = remaining(chunks, written);
  }
}

function remaining(chunks: Uint8Array[], skip: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const c of chunks) {
    if (skip >= c.length) {
      skip -= c.length;
      continue;
    }
    out.push(skip > 0 ? c.subarray(skip) : c);
    skip = 0;
  }
  return out;
}

function ioError(message: string, cause: unknown): EngineError {
  return new EngineError('IO', `${message}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
}
