/**
 * Cross-origin access to the API (`/api/*`) for browser apps on other
 * origins, off unless CORS_ORIGINS lists them. An allowed origin gets
 * `Access-Control-Allow-Origin` with its own value (and `Vary: Origin`); a
 * preflight is answered 204 with the methods and the headers a key-based
 * client sends (Authorization, Content-Type, X-Request-Id). Credentials are
 * not allowed: browser session cookies stay same-origin (they are
 * CSRF-protected for that), and cross-origin callers use API keys. Other
 * origins get no CORS headers, so the browser withholds the answer.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

export function apiCors(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin) => (allowed.has(origin.toLowerCase()) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['authorization', 'content-type', 'x-request-id'],
    exposeHeaders: ['x-request-id', 'retry-after', 'content-disposition'],
    maxAge: 600,
    credentials: false,
  });
}
