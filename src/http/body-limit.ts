/**
 * Request body size limit (413 above `maxSize`), like hono's bodyLimit but
 * without touching the body when the limit can be decided from the headers:
 * GET and HEAD requests have no body, and a body announced by Content-Length
 * (without Transfer-Encoding) is checked by that number, since the HTTP parser
 * reads exactly that many bytes. The Node adapter can then read the body
 * directly later (no web stream is built per request). Chunked bodies are
 * counted while they are read, by hono's bodyLimit.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export interface BodyLimitOptions {
  maxSize: number;
  onError: (c: Context) => Response | Promise<Response>;
}

export function requestBodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const streaming = bodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length || '0', 10) > options.maxSize) return options.onError(c);
      return next();
    }
    return streaming(c, next);
  };
}
