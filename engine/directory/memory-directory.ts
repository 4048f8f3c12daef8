/**
 * MemoryDirectory: a Directory held in process memory (tests, benchmarks, ephemeral
 * indexes). Keeps the same append-only rules as FsDirectory; sync calls are no-ops.
 */
import { sharedBytes, toShared } from './shared-bytes.ts';
import { EngineError } from '../errors.ts';
import { FILE_NAME, type Directory, type DirectoryLock } from './types.ts';

export class MemoryDirectory implements Directory {
  private readonly files = new Map<string, Uint8Array>();
  private closed = false;
  private locked = false;

  async listAll(): Promise<string[]> {
    this.check();
    return [...this.files.keys()];
  }

  async readFile(name: string): Promise<Uint8Array> {
    this.check(name);
    const data = this.files.get(name);
    if (!data) throw new EngineError('NOT_FOUND', `file not found: ${name}`);
    return data;
  }

  async writeFile(name: string, chunks: readonly Uint8Array[]): Promise<void> {
    this.check(name);
    if (this.files.has(name)) throw new EngineError('EXISTS', `file exists: ${name}`);
    // files are immutable once written: a single chunk in shared memory is kept by reference,
    // anything else is copied into shared memory (segment images, see shared-bytes.ts)
    this.files.set(name, chunks.length === 1 ? toShared(chunks[0]) : concat(chunks));
  }

  async appendFile(name: string, data: Uint8Array): Promise<void> {
    this.check(name);
    const old = this.files.get(name);
    this.files.set(name, old ? concat([old, data]) : concat([data]));
  }

  async syncDirectory(): Promise<void> {
    this.check();
  }

  async deleteFile(name: string): Promise<void> {
    this.check(name);
    this.files.delete(name);
  }

  async lock(): Promise<DirectoryLock> {
    this.check();
    if (this.locked) throw new EngineError('LOCKED', 'index directory is already open for writing');
    this.locked = true;
    let held = true;
    return {
      release: async () => {
        if (held) this.locked = held = false;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private check(name?: string): void {
    if (this.closed) throw new EngineError('CLOSED', 'directory is closed');
    if (name !== undefined && !FILE_NAME.test(name)) throw new EngineError('IO', `invalid file name: ${name}`);
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let len = 0;
  for (const c of chunks) len += c.length;
  const out = sharedBytes(len);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
