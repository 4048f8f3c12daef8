/**
 * Liveness and readiness: `GET /healthz` answers 200 once the service has
 * opened its state and is serving requests. No credential required.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';

export function healthRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  return app;
}
