/**
 * Liveness, readiness and version, no credential required:
 *   GET /healthz -> 200 {status: "ok"} while the process serves requests (liveness);
 *   GET /readyz  -> 200 {status: "ready"} once the state is loaded, the index open and the
 *                   indexing queue replayed (src/readiness.ts); 503 {detail} before;
 *   GET /version -> 200 {version} (the same as `enterprise-search --version`).
 */
import { Hono } from 'hono';
import { VERSION } from '../cli.ts';
import type { AppEnv } from '../http/env.ts';
import type { Readiness } from '../readiness.ts';

/** `readiness` absent: the caller built the app from services already open (ready). */
export function healthRoutes(readiness?: Readiness): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) => {
    const blocker = readiness?.blocker();
    if (blocker !== undefined) {
      c.header('Retry-After', '1');
      return c.json({ detail: blocker }, 503);
    }
    return c.json({ status: 'ready' });
  });
  app.get('/version', (c) => c.json({ version: VERSION }));
  return app;
}
