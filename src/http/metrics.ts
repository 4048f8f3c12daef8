/**
 * The HTTP hooks of the metrics: a middleware that times every request under
 * the route pattern that answered it (never the raw path, so the label set is
 * bounded by the registered routes), and a fetch wrapper that times LLM
 * upstream calls until their response headers.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './env.ts';

/** Told of each request: its labels and duration in seconds. */
export type RequestObserver = (labels: { method: string; route: string; status: string }, seconds: number) => void;

/** Told of each upstream call: milliseconds, and how it ended (a 2xx status, another status, no response). */
export type UpstreamObserver = (ms: number, outcome: 'ok' | 'http_error' | 'network_error') => void;

/** The route label of requests no route answered (404s, 405s). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Times each request; the label is the pattern of the handler or middleware that answered. */
export function requestMetrics(observe: RequestObserver): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const pattern = routePath(c);
      // The catch-all middleware patterns answer only when no route matched.
      const route = pattern === '' || pattern === '*' || pattern === '/*' ? UNMATCHED_ROUTE : pattern;
      observe(
        { method: methodLabel(c.req.method), route, status: String(c.res.status) },
        (performance.now() - started) / 1000,
      );
    }
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const methodLabel = (m: string) => (METHODS.has(m) ? m : 'other');

/** `inner` timed as an LLM upstream: outcome by the response's status, or network_error when it throws. */
export function timedUpstreamFetch(inner: typeof fetch, observe: UpstreamObserver): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    try {
      const res = await inner(input, init);
      observe(performance.now() - started, res.ok ? 'ok' : 'http_error');
      return res;
    } catch (err) {
      observe(performance.now() - started, 'network_error');
      throw err;
    }
  };
}
