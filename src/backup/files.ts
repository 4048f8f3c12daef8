/** File helpers of backups and restores: fsync of a whole tree, missing-file errors. */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../storage/record-log.ts';

export const isMissing = (err: unknown): boolean => (err as NodeJS.ErrnoException)?.code === 'ENOENT';

/** Makes every file and directory under `dir` durable (fsync of each file, then of its directory). */
export async function fsyncTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await fsyncTree(path);
    else if (entry.isFile()) {
      const handle = await open(path, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  }
  await fsyncDir(dir);
}
