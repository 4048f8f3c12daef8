/**
 * POST /api/beta/web_search (spec: Web search endpoint), personal account keys
 * only. The strict JSON body is validated with WebSearchBody
 * (src/websearch/schemas.ts; 422 in the Pydantic envelope); the search itself is
 * the web search service (src/websearch/service.ts): 503 when the mode's
 * provider is not configured, 502 when the provider failed.
 */
import { Hono } from 'hono';
import { requirePersonal } from '../auth/middleware.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';
import { createWebSearchService } from '../websearch/service.ts';
import { WebSearchBody } from '../websearch/schemas.ts';
import type { WebSearchService } from '../websearch/types.ts';

export function webSearchRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const webSearch: WebSearchService =
    services.webSearch ??
    createWebSearchService({
      config: services.config.webSearch,
      log: services.log,
      onProviderError: services.metrics?.webSearchFailed,
    });
  app.post('/api/beta/web_search', requirePersonal(services), async (c) => {
    const body = await jsonBody(c, WebSearchBody);
    const results = await webSearch.search(
      {
        queries: body.queries,
        sites: body.sites ?? undefined,
        count: body.count ?? undefined,
        timeout: body.timeout ?? undefined,
        deepSearch: body.deep_search ?? undefined,
        mode: body.mode ?? undefined,
      },
      c.req.raw.signal,
    );
    return c.json(results);
  });
  return app;
}
