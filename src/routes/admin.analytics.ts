/**
 * Admin API, the search analytics report (master key or an administrator):
 *   GET /api/admin/analytics?from&to&limit -> the report of the period (src/analytics/report.ts)
 *       `from`/`to` ISO 8601 dates or date-times (a `to` date includes its whole day; default
 *       the last 30 days; at most 366 days), `limit` 1..100 (default 20) entries per query list.
 */
import { Hono } from 'hono';
import type { SearchAnalytics } from '../analytics/analytics.ts';
import { parsePeriod } from '../analytics/period.ts';
import { requireAdmin } from '../auth/middleware.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

export function adminAnalyticsRoutes(services: Services, analytics: SearchAnalytics): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/admin/analytics', requireAdmin(services), async (c) => {
    const period = parsePeriod(
      { from: c.req.queries('from')?.at(-1), to: c.req.queries('to')?.at(-1), limit: c.req.queries('limit')?.at(-1) },
      services.now(),
    );
    return c.json(await analytics.report(period));
  });
  return app;
}
