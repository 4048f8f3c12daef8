/**
 * GET /metrics: the Prometheus text exposition (src/metrics/metrics.ts), for a
 * scraper presenting `Authorization: Bearer <METRICS_TOKEN>`. Mounted only when
 * METRICS_TOKEN is set (otherwise 404). A missing or wrong token is 401; the
 * token is compared by digest, in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import type { Metrics } from '../metrics/metrics.ts';

const encoder = new TextEncoder();
const digest = async (s: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(s)));

export function metricsRoutes(metrics: Metrics, token: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const expected = digest(token);
  app.get('/metrics', async (c) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(await digest(given), await expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ detail: 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)' }, 401);
    }
    return c.body(await metrics.text(), 200, { 'content-type': metrics.contentType });
  });
  return app;
}
