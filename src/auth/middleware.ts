/**
 * Hono middleware factories that authenticate the request and check its
 * kind, setting `principal` for the handler:
 * - requireServiceAccount: Indexing API, `svcsa_` service-account keys; with
 *   `adminSessions` (the control plane, check-access, document status) also
 *   the browser session of an account with the administrator role, so the
 *   dashboard can act there (never a personal key; document pushes stay
 *   service-account-only: a session there is a valid credential of the
 *   wrong kind, 403);
 * - requirePersonal: search, chat and web search, personal account keys only
 *   (the principal carries the account's email, used for visibility), or the
 *   browser session of an account (the web pages call the same API);
 * - requireAdmin: the master key, or an account key or session with the
 *   administrator role.
 * Missing, malformed, unknown, revoked or expired keys answer 401 `{detail}`
 * with `WWW-Authenticate: Bearer`; a valid key of the wrong kind answers 403.
 *
 * Sessions: a request without an `Authorization` header that carries the
 * session cookie is authenticated by it (sessions.ts rules). A state-changing
 * request authenticated by the cookie must also pass the CSRF checks
 * (http/session.ts): not cross-site, and the `X-CSRF-Token` header equal to
 * the session's CSRF token; otherwise 403. A bearer header always wins over a
 * cookie, so API clients are never subject to the CSRF rules.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ServiceError } from '../errors.ts';
import type { Principal } from '../accounts/principal.ts';
import type { AppEnv } from '../http/env.ts';
import type { Config } from '../config.ts';
import { resolveSession } from '../sessions/sessions.ts';
import {
  CSRF_HEADER,
  crossSiteReason,
  csrfTokenFor,
  isSafeMethod,
  readSessionToken,
  sameToken,
} from '../http/session.ts';
import { authenticate, type AuthDeps } from './authenticate.ts';

type Check = (p: Principal) => string | undefined;

/** What the guards need: key authentication, plus the session policy for browser sessions. */
export type GuardDeps = AuthDeps & { config: Pick<Config, 'adminKey' | 'web'> };

function guard(deps: GuardDeps, check: Check, sessions: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const sessionToken = sessions && header === undefined ? readSessionToken(c) : undefined;
    let principal: Principal;
    if (sessionToken !== undefined) {
      const outcome = await sessionPrincipal(c, deps, sessionToken);
      if (outcome instanceof Response) return outcome;
      principal = outcome;
    } else {
      try {
        principal = await authenticate(deps, header);
      } catch (err) {
        if (err instanceof ServiceError && err.kind === 'UNAUTHORIZED') return deny(c, err.message);
        throw err;
      }
    }
    const refusal = check(principal);
    if (refusal !== undefined) return c.json({ detail: refusal }, 403);
    c.set('principal', principal);
    await next();
  };
}

/** The account principal of a session cookie, or the 401/403 answer. */
async function sessionPrincipal(c: Context<AppEnv>, deps: GuardDeps, token: string): Promise<Principal | Response> {
  const resolved = await resolveSession({ state: deps.state, now: deps.now, sessions: deps.config.web.session }, token);
  if (!resolved) return deny(c, 'The session has ended (signed out, expired or revoked); sign in again');
  const csrf = await csrfTokenFor(token);
  c.set('csrf', csrf);
  if (!isSafeMethod(c.req.method)) {
    const reason = crossSiteReason(c, deps.config.web.trustProxy);
    if (reason !== undefined) return c.json({ detail: `CSRF check failed: ${reason}` }, 403);
    if (!sameToken(c.req.header(CSRF_HEADER), csrf)) {
      return c.json({ detail: 'CSRF check failed: the X-CSRF-Token header is missing or wrong' }, 403);
    }
  }
  const { account, session } = resolved;
  return {
    kind: 'account',
    accountId: account.id,
    email: account.email,
    roles: [...account.roles],
    keyId: session.id,
    sessionId: session.id,
  };
}

function deny(c: Context<AppEnv>, detail: string): Response {
  c.header('WWW-Authenticate', 'Bearer');
  return c.json({ detail }, 401);
}

export function requireServiceAccount(
  deps: GuardDeps,
  opts: { adminSessions?: boolean } = {},
): MiddlewareHandler<AppEnv> {
  return guard(
    deps,
    (p) => {
      if (p.kind === 'service_account') return undefined;
      if (!opts.adminSessions || p.kind !== 'account' || p.sessionId === undefined)
        return 'The Indexing API accepts only service-account keys (svcsa_...)';
      return p.roles.includes('administrator')
        ? undefined
        : 'The Indexing API accepts a browser session only of an account with the administrator role';
    },
    true,
  );
}

export function requirePersonal(deps: GuardDeps): MiddlewareHandler<AppEnv> {
  return guard(
    deps,
    (p) => (p.kind === 'account' ? undefined : 'This endpoint accepts only personal account keys'),
    true,
  );
}

export function requireAdmin(deps: GuardDeps): MiddlewareHandler<AppEnv> {
  return guard(
    deps,
    (p) =>
      p.kind === 'master' || (p.kind === 'account' && p.roles.includes('administrator'))
        ? undefined
        : 'Administrator access required (the master key or an account with the administrator role)',
    true,
  );
}
