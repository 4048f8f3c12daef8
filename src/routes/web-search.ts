/**
 * POST /api/beta/web_search (spec: Web search endpoint), personal account keys
 * only. The strict JSON body is validated here (422 in the Pydantic envelope;
 * `null` counts as omitted for optional fields); the search itself is the web
 * search service (src/websearch/service.ts): 503 when the mode's provider is
 * not configured, 502 when the provider failed.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requirePersonal } from '../auth/middleware.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { pyIssue } from '../validation/pydantic.ts';
import type { Services } from '../services.ts';
import { createWebSearchService } from '../websearch/service.ts';
import {
  MAX_QUERIES,
  MAX_QUERY_CHARS,
  MAX_SITES,
  WEB_SEARCH_MODES,
  type WebSearchService,
} from '../websearch/types.ts';
import { siteHost } from '../websearch/urls.ts';

const int = (min: number) =>
  v.pipe(
    v.number(pyIssue('int_type', 'Input should be a valid integer')),
    v.integer(pyIssue('int_from_float', 'Input should be a valid integer, got a number with a fractional part')),
    v.minValue(min),
  );

export const WebSearchBody = v.strictObject({
  queries: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(MAX_QUERY_CHARS))),
    v.minLength(1),
    v.maxLength(MAX_QUERIES),
    v.check(
      (qs) => qs.some((q) => q.trim() !== ''),
      pyIssue('value_error', 'Value error, at least one query must be non-empty', { error: {} }),
    ),
  ),
  sites: v.nullish(
    v.pipe(
      v.array(
        v.pipe(
          v.string(),
          v.check((s) => siteHost(s) !== null, pyIssue('value_error', 'Value error, not a host name', { error: {} })),
        ),
      ),
      v.maxLength(MAX_SITES),
    ),
  ),
  count: v.nullish(int(1)),
  timeout: v.nullish(int(1)),
  deep_search: v.nullish(v.boolean()),
  mode: v.nullish(v.picklist(WEB_SEARCH_MODES)),
});

export function webSearchRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const webSearch: WebSearchService =
    services.webSearch ?? createWebSearchService({ config: services.config.webSearch, log: services.log });
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
