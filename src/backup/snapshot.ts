/**
 * Online backup of a data directory while the server (or a CLI command holding its lock)
 * runs: a consistent snapshot in which every indexing operation acknowledged before the
 * backup began is present, either in the index or in the durable queue.
 *
 * Order (each step's copy is a cut taken after the previous one's):
 * 1. Everything but the index and the queue (state, documents/ status files, connectors,
 *    audit, analytics, conversations, files, uploads): a file-by-file copy. These files are
 *    append-only or written once and renamed into place, so each copy is what a kill -9 at
 *    that moment would leave, which every store already opens (a torn tail is cut off). A
 *    directory whose listing changes under the copy (a compaction removed a file) is copied
 *    again. Connector git clones (`connectors/<id>/work`) are caches and are left out.
 * 2. The durable queue: each file's complete records (a torn last record is being written
 *    and was not acknowledged). A file that vanished held only committed operations.
 * 3. The index: the last commit point, pinned while its write-once segment and deletion
 *    files are hard-linked (copied across file systems), plus a commit log holding just it.
 *    It is newer than the queue cut, and its recorded queue sequence number makes the
 *    restored server replay exactly the queued operations the commit does not contain.
 * Last, `backup.json` (the manifest) is written: a directory without it is not a backup.
 */
import { copyFile, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Index } from '../../engine/index.ts';
import { VERSION } from '../cli.ts';
import { scanFrames } from '../storage/frame.ts';
import { fsyncTree, isMissing } from './files.ts';

/** The manifest's name and format; `restore` checks both. */
export const MANIFEST = 'backup.json';
export const BACKUP_FORMAT = 1;

export interface BackupManifest {
  format: number;
  version: string;
  started_at: string;
  finished_at: string;
  index: { generation: number; documents: number; files: number };
  queue: { files: number; bytes: number };
  files: number;
  bytes: number;
}

/** Paths (relative to the data directory) that steps 2 and 3 copy, or that are never copied. */
const SPECIAL = new Set(['index', join('documents', 'queue')]);
const isConnectorWork = (rel: string) => /^connectors[\\/][^\\/]+[\\/]work$/.test(rel);
const QUEUE_FILE = /^queue-\d{16}\.bin$/;
/** Attempts to copy a directory whose listing keeps changing. */
const DIRECTORY_ATTEMPTS = 5;

interface Tally {
  files: number;
  bytes: number;
}

/**
 * Writes a backup of `dataDir` into `dest`, which must not exist or be empty. `index` is the
 * open index of the data directory (this process holds its lock).
 */
export async function writeBackup(
  dataDir: string,
  index: Index,
  dest: string,
  now = Date.now,
): Promise<BackupManifest> {
  const started = new Date(now()).toISOString();
  if (isInside(dataDir, dest)) throw new BackupError(`${dest} is inside the data directory; choose a place outside it`);
  await prepareDestination(dest);
  try {
    return await writeInto(dataDir, index, dest, started, now);
  } catch (err) {
    // A failed backup (disk full, permissions) leaves nothing behind, so its name can be used again.
    await rm(dest, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}

async function writeInto(
  dataDir: string,
  index: Index,
  dest: string,
  started: string,
  now: () => number,
): Promise<BackupManifest> {
  const tally: Tally = { files: 0, bytes: 0 };
  await copyDirectory(dataDir, dest, '', tally);
  const queue = await copyQueue(join(dataDir, 'documents', 'queue'), join(dest, 'documents', 'queue'));
  const snapshot = index.writer.pinCommit();
  try {
    const to = join(dest, 'index');
    await mkdir(to, { recursive: true });
    for (const f of snapshot.files) await linkOrCopy(join(dataDir, 'index', f), join(to, f));
    await writeFile(join(to, snapshot.commitLog.name), snapshot.commitLog.bytes);
  } finally {
    snapshot.release();
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: VERSION,
    started_at: started,
    finished_at: new Date(now()).toISOString(),
    index: { generation: snapshot.generation, documents: snapshot.docCount, files: snapshot.files.length },
    queue,
    files: tally.files + queue.files + snapshot.files.length + 1,
    bytes: tally.bytes + queue.bytes,
  };
  await fsyncTree(dest);
  await writeFile(join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
  return manifest;
}

/** Whether `path` is `dir` or lies under it. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Creates `dest`, or accepts it empty; anything else is refused (a backup never overwrites). */
export async function prepareDestination(dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  const present = await readdir(dest);
  if (present.length > 0) throw new BackupError(`${dest} is not empty; a backup goes into a new or empty directory`);
}

/** A backup or restore the operator asked for cannot be done as asked (message says why). */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Step 1: copies `from/rel` into `to/rel`, again when the listing changed meanwhile. */
async function copyDirectory(from: string, to: string, rel: string, tally: Tally): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const before = (await readdir(join(from, rel), { withFileTypes: true })).filter((e) => !e.name.endsWith('.lock'));
    await mkdir(join(to, rel), { recursive: true });
    let vanished = false;
    const copied: Tally = { files: 0, bytes: 0 };
    for (const entry of before) {
      const child = join(rel, entry.name);
      if (SPECIAL.has(child) || isConnectorWork(child)) continue;
      try {
        if (entry.isDirectory()) await copyDirectory(from, to, child, copied);
        else if (entry.isFile()) {
          await copyFile(join(from, child), join(to, child));
          copied.files++;
          copied.bytes += (await stat(join(to, child))).size;
        }
      } catch (err) {
        if (!isMissing(err)) throw err;
        vanished = true;
      }
    }
    const after = new Set((await readdir(join(from, rel))).filter((n) => !n.endsWith('.lock')));
    const unchanged = before.length === after.size && before.every((e) => after.has(e.name));
    if ((!vanished && unchanged) || attempt === DIRECTORY_ATTEMPTS) {
      if (vanished && !unchanged)
        throw new BackupError(`${join(from, rel)} kept changing during the backup; try again`);
      tally.files += copied.files;
      tally.bytes += copied.bytes;
      return;
    }
    await rm(join(to, rel), { recursive: true, force: true });
  }
}

/** Step 2: the queue files' complete records. */
async function copyQueue(from: string, to: string): Promise<Tally> {
  await mkdir(to, { recursive: true });
  const tally: Tally = { files: 0, bytes: 0 };
  let names: string[];
  try {
    names = (await readdir(from)).filter((n) => QUEUE_FILE.test(n)).sort();
  } catch (err) {
    if (isMissing(err)) return tally;
    throw err;
  }
  for (const name of names) {
    let data: Uint8Array;
    try {
      data = await readFile(join(from, name));
    } catch (err) {
      if (isMissing(err)) continue;
      throw err;
    }
    const good = data.subarray(0, scanFrames(data).goodBytes);
    await writeFile(join(to, name), good);
    tally.files++;
    tally.bytes += good.byteLength;
  }
  return tally;
}

/** A hard link of a write-once file; a copy when the two paths are on different file systems. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    await copyFile(from, to);
  }
}
