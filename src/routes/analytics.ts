/**
 * Search analytics of the calling account (personal key, or the browser
 * session with the X-CSRF-Token header, as the search and chat pages send):
 *   POST   /api/analytics/events   {type: "click", query_id, result_id, rank, page}
 *                                  | {type: "feedback", id, rating, comment?, question?, answer?, conversation_id?}
 *                                  -> 204 once recorded durably
 *   DELETE /api/analytics/history  -> {deleted: n}: every record naming the account is removed from the disk
 * Bodies are strict (422), at most MAX_EVENT_BYTES (413); beyond the account's
 * budget of events a minute 429 with Retry-After; with ANALYTICS=off events
 * are 404 (deleting a history works in every mode).
 */
import { Hono, type Context } from 'hono';
import type { SearchAnalytics } from '../analytics/analytics.ts';
import { AnalyticsEvent, MAX_EVENT_BYTES } from '../analytics/records.ts';
import { requirePersonal } from '../auth/middleware.ts';
import { requestBodyLimit } from '../http/body-limit.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

function searcherOf(c: Context<AppEnv>) {
  const principal = c.get('principal');
  if (principal.kind !== 'account') throw new Error('requirePersonal lets only accounts through');
  return { accountId: principal.accountId, sessionId: principal.sessionId ?? principal.keyId };
}

export function analyticsRoutes(services: Services, analytics: SearchAnalytics): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const personal = requirePersonal(services);
  const bounded = requestBodyLimit({
    maxSize: MAX_EVENT_BYTES,
    onError: (c) => c.json({ detail: `Request body exceeds the limit of ${MAX_EVENT_BYTES} bytes` }, 413),
  });

  app.post('/api/analytics/events', personal, bounded, async (c) => {
    const event = await jsonBody(c, AnalyticsEvent);
    await analytics.recordEvent(searcherOf(c), event);
    return c.body(null, 204);
  });

  app.delete('/api/analytics/history', personal, async (c) => {
    return c.json({ deleted: await analytics.deleteHistory(searcherOf(c).accountId) });
  });
  return app;
}
