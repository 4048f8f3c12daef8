/**
 * Backups through the admin API: written under the configured BACKUP_DIR only (a caller names
 * a backup, never a path, so the API cannot write elsewhere on the server), one at a time.
 * The snapshot itself is src/backup/snapshot.ts.
 */
import * as v from 'valibot';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Index } from '../../engine/index.ts';
import { conflict, ServiceError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { readManifest } from './restore.ts';
import { BackupError, writeBackup, type BackupManifest } from './snapshot.ts';
import { isMissing } from './files.ts';

/** A backup's name: one path segment. */
export const BACKUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The body of POST /api/admin/backups. */
export const CreateBackupBody = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.regex(BACKUP_NAME, 'name must be 1-100 letters, digits, ".", "_" or "-"'))),
});

export interface BackupView extends BackupManifest {
  name: string;
  path: string;
}

export interface BackupDeps {
  root?: string;
  dataDir: string;
  index: Index;
  log: Logger;
  now: () => number;
}

/** The default name of a backup taken at `ms`: `backup-20260102T030405Z`. */
export const defaultBackupName = (ms: number): string =>
  `backup-${new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;

export class BackupService {
  private running = false;

  constructor(private readonly deps: BackupDeps) {}

  /** Writes a backup named `name` (default: by the time) under BACKUP_DIR. */
  async create(name?: string): Promise<BackupView> {
    const root = this.requireRoot();
    if (this.running) throw conflict('a backup is already being written; try again when it has finished');
    const chosen = name ?? defaultBackupName(this.deps.now());
    const path = join(root, chosen);
    this.running = true;
    try {
      const manifest = await writeBackup(this.deps.dataDir, this.deps.index, path, this.deps.now);
      this.deps.log.info('backup written', { name: chosen, documents: manifest.index.documents });
      return { name: chosen, path, ...manifest };
    } catch (err) {
      if (err instanceof BackupError) throw conflict(`backup ${chosen}: ${err.message}`);
      const code = (err as NodeJS.ErrnoException)?.code;
      this.deps.log.error('backup failed', { name: chosen, error: err });
      throw new ServiceError('UNAVAILABLE', `backup ${chosen} failed${code ? ` (${code})` : ''}; see the server log`);
    } finally {
      this.running = false;
    }
  }

  /** The complete backups under BACKUP_DIR, newest first (directories without a manifest are left out). */
  async list(): Promise<BackupView[]> {
    const root = this.requireRoot();
    let names: string[];
    try {
      names = await readdir(root);
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
    const out: BackupView[] = [];
    for (const name of names.filter((n) => BACKUP_NAME.test(n))) {
      try {
        out.push({ name, path: join(root, name), ...(await readManifest(join(root, name))) });
      } catch (err) {
        if (!(err instanceof BackupError)) throw err;
      }
    }
    return out.sort((a, b) => b.started_at.localeCompare(a.started_at));
  }

  private requireRoot(): string {
    if (this.deps.root === undefined)
      throw new ServiceError('CONFLICT', 'backups through the API need BACKUP_DIR (a directory outside DATA_DIR)');
    return this.deps.root;
  }
}
