/**
 * Admin API, the server at a glance (master key or an administrator):
 *   GET /api/admin/stats -> {version, started_at, uptime_seconds,
 *       datasources: [{name, display_name, documents, pending, skipped, failed}],
 *       operations: {queued, last_sequence, committed_sequence}, last_commit_at,
 *       index: {documents, segments, deleted_documents, size_bytes},
 *       disk: {data_dir, used_bytes, files, complete, free_bytes, total_bytes},
 *       rejected: [{datasource, document_id, state, message, last_modified, received_at}] (newest 100),
 *       rejected_total}
 * See src/admin/stats.ts for what each figure counts.
 */
import { Hono } from 'hono';
import { serverStats } from '../admin/stats.ts';
import { requireAdmin } from '../auth/middleware.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

/** What the stats read, from the services. */
export const statsDepsOf = (services: Services) => ({
  state: services.state,
  dataDir: services.config.dataDir,
  documents: services.documents,
  now: services.now,
});

export function adminStatsRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const deps = statsDepsOf(services);
  app.get('/api/admin/stats', requireAdmin(services), async (c) => c.json(await serverStats(deps)));
  return app;
}
