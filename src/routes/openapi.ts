/**
 * The description of the API (openapi/document.ts):
 *   GET /api/beta/openapi.json  the OpenAPI 3.1 document; any bearer key
 *                               (personal, service account or master);
 *   GET /api/docs               the same as an HTML reference page
 *                               (openapi/reference.ts); any bearer key, or
 *                               the browser session of a signed-in account.
 * Like every endpoint (spec, Endpoints) they need a credential, though they
 * describe the interface, not any data. Missing or bad: 401 `{detail}`.
 */
import { Hono, type Context } from 'hono';
import { authenticate, type AuthDeps } from '../auth/authenticate.ts';
import type { Config } from '../config.ts';
import { ServiceError } from '../errors.ts';
import type { AppEnv } from '../http/env.ts';
import { readSessionToken } from '../http/session.ts';
import { openApiDocument } from '../openapi/document.ts';
import { referencePage } from '../openapi/reference.ts';
import { resolveSession } from '../sessions/sessions.ts';
import { CONTENT_SECURITY_POLICY } from '../web/security.ts';

type Deps = AuthDeps & { config: Pick<Config, 'web'> };

let page: string | undefined;

export function openApiRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/api/beta/openapi.json', async (c) => (await admitted(c, deps, false)) ?? c.json(openApiDocument()));
  app.get('/api/docs', async (c) => {
    const refused = await admitted(c, deps, true);
    if (refused) return refused;
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cache-Control', 'no-store');
    return c.html((page ??= referencePage(openApiDocument())));
  });
  return app;
}

/** undefined when the request carries a valid credential, else the 401 answer. */
async function admitted(c: Context<AppEnv>, deps: Deps, sessions: boolean): Promise<Response | undefined> {
  const header = c.req.header('authorization');
  const token = sessions && header === undefined ? readSessionToken(c) : undefined;
  if (token !== undefined) {
    const resolved = await resolveSession(
      { state: deps.state, now: deps.now, sessions: deps.config.web.session },
      token,
    );
    return resolved ? undefined : deny(c, 'The session has ended (signed out, expired or revoked); sign in again');
  }
  try {
    await authenticate(deps, header);
    return undefined;
  } catch (err) {
    if (err instanceof ServiceError && err.kind === 'UNAUTHORIZED') return deny(c, err.message);
    throw err;
  }
}

function deny(c: Context<AppEnv>, detail: string): Response {
  c.header('WWW-Authenticate', 'Bearer');
  return c.json({ detail }, 401);
}
