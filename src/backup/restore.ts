/**
 * Restore of a backup written by writeBackup (src/backup/snapshot.ts) into a data directory
 * that does not exist or is empty (a non-empty one is refused: a restore never merges into
 * or overwrites live state). The backup's manifest must be present and of a known format.
 * Write-once index files (segments, deletions) are hard-linked when both directories are on
 * one file system, everything else (logs that the restored server appends to) is copied, so
 * the backup stays as it was. The restored server replays the queued operations at start.
 */
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncTree, isMissing } from './files.ts';
import {
  BACKUP_FORMAT,
  BackupError,
  linkOrCopy,
  MANIFEST,
  prepareDestination,
  type BackupManifest,
} from './snapshot.ts';

const WRITE_ONCE_INDEX_FILE = /^s[0-9a-z]+(\.seg|_[0-9a-z]+\.del)$/;

/** Reads and checks the manifest of the backup in `dir`. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), 'utf8');
  } catch (err) {
    if (!isMissing(err)) throw err;
    throw new BackupError(`${dir} is not a complete backup (no ${MANIFEST})`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BackupError(`${join(dir, MANIFEST)} is not valid JSON`);
  }
  if (manifest?.format !== BACKUP_FORMAT)
    throw new BackupError(`${dir}: backup format ${String(manifest?.format)} is not known (expected ${BACKUP_FORMAT})`);
  return manifest;
}

/** Restores the backup in `backupDir` into `dataDir` (new or empty). */
export async function restoreBackup(backupDir: string, dataDir: string): Promise<BackupManifest> {
  const manifest = await readManifest(backupDir);
  try {
    await prepareDestination(dataDir);
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    throw new BackupError(`the data directory ${dataDir} is not empty; restore into a new or empty DATA_DIR`);
  }
  await copyTree(backupDir, dataDir, '');
  await fsyncTree(dataDir);
  return manifest;
}

async function copyTree(from: string, to: string, rel: string): Promise<void> {
  await mkdir(join(to, rel), { recursive: true });
  for (const entry of await readdir(join(from, rel), { withFileTypes: true })) {
    const child = join(rel, entry.name);
    if (child === MANIFEST) continue;
    if (entry.isDirectory()) await copyTree(from, to, child);
    else if (rel === 'index' && WRITE_ONCE_INDEX_FILE.test(entry.name))
      await linkOrCopy(join(from, child), join(to, child));
    else await copyFile(join(from, child), join(to, child));
  }
}
