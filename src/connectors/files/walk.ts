/**
 * Walks a directory tree for the files connector: depth first, names sorted, one directory
 * listing in memory at a time (memory stays flat however large the tree). Hidden entries
 * (a name starting with `.`) are skipped unless asked for; excluded folders are not entered;
 * symbolic links are skipped unless followed (then a folder reached twice, a loop, is entered
 * once); sockets, pipes and devices are skipped; the `skip` folder is never entered. A folder that cannot be listed is reported
 * through `onUnreadable` (the listing is then incomplete); the root itself must be listable.
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, stat, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GlobMatcher } from '../glob.ts';

export interface WalkOptions {
  root: string;
  /** null: every file. */
  include: GlobMatcher | null;
  exclude: GlobMatcher;
  hidden: boolean;
  followSymlinks: boolean;
  /** An absolute folder never entered (the service's own data directory). */
  skip?: string;
  signal: AbortSignal;
  onUnreadable(relDir: string, err: Error): void;
}

export type WalkedFile = { rel: string; abs: string; stat: Stats } | { rel: string; abs: string; error: Error };

const STAT_BATCH = 16;

/** Candidate files in walk order (without their metadata), as relative and absolute paths. */
async function* candidates(o: WalkOptions, withStat: boolean): AsyncGenerator<{ rel: string; abs: string }> {
  const seenDirs = new Set<string>();
  const stack: string[] = [''];
  while (stack.length > 0 && !o.signal.aborted) {
    const relDir = stack.pop()!;
    const absDir = relDir === '' ? o.root : join(o.root, relDir);
    let entries: Dirent[];
    try {
      entries = await readdir(absDir, { withFileTypes: true });
    } catch (err) {
      if (relDir === '') throw err;
      o.onUnreadable(relDir, err as Error);
      continue;
    }
    if (o.followSymlinks && withStat) {
      const s = await stat(absDir).catch(() => undefined);
      const id = s ? `${s.dev}:${s.ino}` : absDir;
      if (seenDirs.has(id)) continue;
      seenDirs.add(id);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      if (!o.hidden && e.name.startsWith('.')) continue;
      const rel = relDir === '' ? e.name : `${relDir}/${e.name}`;
      let kind: 'file' | 'dir' | undefined = e.isFile() ? 'file' : e.isDirectory() ? 'dir' : undefined;
      if (e.isSymbolicLink() && o.followSymlinks) {
        const s = await stat(join(absDir, e.name)).catch(() => undefined);
        kind = s?.isFile() ? 'file' : s?.isDirectory() ? 'dir' : undefined;
      }
      if (kind === 'dir') {
        if (!o.exclude.coversDirectory(rel) && join(absDir, e.name) !== o.skip) subdirs.push(rel);
      } else if (kind === 'file' && !o.exclude.matches(rel) && (o.include === null || o.include.matches(rel)))
        yield { rel, abs: join(absDir, e.name) };
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

/** How many files a walk would yield now (a listing without metadata, for progress). */
export async function countFiles(o: WalkOptions): Promise<number> {
  let n = 0;
  for await (const _ of candidates({ ...o, onUnreadable: () => {} }, false)) n++;
  return n;
}

/** The files with their metadata; a file that vanished meanwhile is left out. */
export async function* walkFiles(o: WalkOptions): AsyncGenerator<WalkedFile> {
  const statOf = o.followSymlinks ? stat : lstat;
  let batch: { rel: string; abs: string }[] = [];
  const flush = async function* () {
    const stats = await Promise.all(
      batch.map((f) =>
        statOf(f.abs).then(
          (s) => s,
          (err: Error) => err,
        ),
      ),
    );
    for (let i = 0; i < batch.length; i++) {
      const s = stats[i];
      if (s instanceof Error) {
        if ((s as NodeJS.ErrnoException).code !== 'ENOENT') yield { ...batch[i], error: s };
      } else if (s.isFile()) yield { ...batch[i], stat: s };
    }
    batch = [];
  };
  for await (const f of candidates(o, true)) {
    batch.push(f);
    if (batch.length >= STAT_BATCH) yield* flush();
  }
  yield* flush();
}
