/**
 * Hono middleware factories that authenticate the bearer key and check its
 * kind, setting `principal` for the handler:
 * - requireServiceAccount: Indexing API, `svcsa_` service-account keys only;
 * - requirePersonal: search, chat and web search, personal account keys only
 *   (the principal carries the account's email, used for visibility);
 * - requireAdmin: the master key, or an account key with the administrator role.
 * Missing, malformed, unknown, revoked or expired keys answer 401 `{detail}`
 * with `WWW-Authenticate: Bearer`; a valid key of the wrong kind answers 403.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ServiceError } from '../errors.ts';
import type { Principal } from '../accounts/principal.ts';
import type { AppEnv } from '../http/env.ts';
import { authenticate, type AuthDeps } from './authenticate.ts';

type Check = (p: Principal) => string | undefined;

function guard(deps: AuthDeps, check: Check): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let principal: Principal;
    try {
      principal = await authenticate(deps, c.req.header('authorization'));
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'UNAUTHORIZED') return deny(c, err.message);
      throw err;
    }
    const refusal = check(principal);
    if (refusal !== undefined) return c.json({ detail: refusal }, 403);
    c.set('principal', principal);
    await next();
  };
}

function deny(c: Context<AppEnv>, detail: string): Response {
  c.header('WWW-Authenticate', 'Bearer');
  return c.json({ detail }, 401);
}

export function requireServiceAccount(deps: AuthDeps): MiddlewareHandler<AppEnv> {
  return guard(deps, (p) =>
    p.kind === 'service_account' ? undefined : 'The Indexing API accepts only service-account keys (svcsa_...)',
  );
}

export function requirePersonal(deps: AuthDeps): MiddlewareHandler<AppEnv> {
  return guard(deps, (p) => (p.kind === 'account' ? undefined : 'This endpoint accepts only personal account keys'));
}

export function requireAdmin(deps: AuthDeps): MiddlewareHandler<AppEnv> {
  return guard(deps, (p) =>
    p.kind === 'master' || (p.kind === 'account' && p.roles.includes('administrator'))
      ? undefined
      : 'Administrator access required (the master key or an account with the administrator role)',
  );
}
