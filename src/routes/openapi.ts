/**
 * GET /api/beta/openapi.json: the OpenAPI 3.1 description of the search
 * interface (search/openapi.ts). Like every endpoint (spec, Endpoints) it needs
 * a bearer credential; any valid key will do (personal, service account or
 * master): it describes the interface, not any data.
 */
import { Hono } from 'hono';
import { authenticate, type AuthDeps } from '../auth/authenticate.ts';
import { ServiceError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { openApiDocument } from '../search/openapi.ts';

export function openApiRoutes(deps: AuthDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/beta/openapi.json', async (c) => {
    try {
      await authenticate(deps, c.req.header('authorization'));
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'UNAUTHORIZED') {
        c.header('WWW-Authenticate', 'Bearer');
        return c.json({ detail: err.message }, 401);
      }
      throw err;
    }
    return c.json(openApiDocument());
  });
  return app;
}
