/**
 * GET /api/beta/search (spec, Search endpoint), personal account keys only:
 * the query string is validated with validateSearchQuery (search/schemas.ts)
 * into FastAPI's 422 shape, then the search runs for the key's account email
 * (`searchJsonWith`: on the search worker threads when the server has them),
 * under the configured search budgets; a refusal or a budget cut is logged with the request id.
 * A repeated parameter counts with its last value and unknown parameters are
 * ignored, as in FastAPI. Extension: `language=de|en` (query analysis hint).
 */
import { Hono } from 'hono';
import { requirePersonal } from '../auth/middleware.ts';
import type { DocumentService } from '../documents/service.ts';
import type { AppEnv } from '../http/env.ts';
import { toSearchParams, validateSearchQuery } from '../search/schemas.ts';
import { searchJsonWith } from '../search/service.ts';
import type { Services } from '../services.ts';

/** The dependencies of a search, shared by this route and the search page (src/web/pages/search.tsx). */
export function searchDepsOf(services: Services & { documents: DocumentService }) {
  const documents = services.documents;
  return {
    state: services.state,
    index: documents.index,
    now: services.now,
    runner: services.searchRunner,
    hidden: (name: string) => documents.dropPending(name),
    limits: services.config.search.limits,
    onSearch: services.metrics?.searched,
  };
}

export function searchRoutes(services: Services & { documents: DocumentService }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const deps = searchDepsOf(services);
  app.get('/api/beta/search', requirePersonal(services), async (c) => {
    const principal = c.get('principal');
    if (principal.kind !== 'account')
      return c.json({ detail: 'This endpoint accepts only personal account keys' }, 403);
    const raw: Record<string, string> = {};
    for (const [name, values] of Object.entries(c.req.queries())) raw[name] = values[values.length - 1];
    const params = toSearchParams(validateSearchQuery(raw));
    const json = await searchJsonWith(deps, principal.email, params, c.get('log'));
    return c.body(json, 200, { 'content-type': 'application/json' });
  });
  return app;
}
