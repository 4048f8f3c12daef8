/**
 * Admin API, online backups (master key or an administrator):
 *   POST /api/admin/backups {name?} -> 201 {name, path, format, version, started_at, finished_at,
 *        index: {generation, documents, files}, queue: {files, bytes}, files, bytes}
 *   GET  /api/admin/backups -> {backups: [same]} (newest first)
 * Backups go under BACKUP_DIR only; `name` is one path segment (default `backup-<UTC time>`).
 * Without BACKUP_DIR, with a name already taken or while another backup runs: 409.
 * Restore is a CLI command (`enterprise-search restore DIR`) on a stopped server.
 */
import { Hono } from 'hono';
import { requireAdmin } from '../auth/middleware.ts';
import { BackupService, CreateBackupBody } from '../backup/service.ts';
import { ServiceError } from '../errors.ts';
import { readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';
import { validate } from '../validation/pydantic.ts';

export function adminBackupsRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const admin = requireAdmin(services);
  const index = services.documents?.index;
  const backups = index
    ? new BackupService({
        root: services.config.backupDir,
        dataDir: services.config.dataDir,
        index,
        log: services.log,
        now: services.now,
      })
    : undefined;
  const need = () => {
    if (!backups) throw new ServiceError('UNAVAILABLE', 'this server has no search index to back up');
    return backups;
  };
  app.post('/api/admin/backups', admin, async (c) => {
    const body = validate(CreateBackupBody, (await readJson(c)) ?? {}, 'body');
    return c.json(await need().create(body.name), 201);
  });
  app.get('/api/admin/backups', admin, async (c) => c.json({ backups: await need().list() }));
  return app;
}
