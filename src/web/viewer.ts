/**
 * Who is looking at a page, and the CSRF rule of the page forms.
 *
 * `loadViewer` runs before every page: it picks the page language (i18n.ts),
 * resolves the session cookie to the signed-in account (sessions.ts, the same
 * rules as the API: ended, expired, revoked or deleted means signed out), and
 * sets the token the page's forms and fetch calls carry: the session's CSRF
 * token, or before sign-in a pre-session token (http/session.ts).
 * `requireViewer` sends a visitor who is not signed in to the sign-in page,
 * keeping the address they asked for. `assertFormToken` is the check every
 * page form post passes: not cross-site, and the `_csrf` field equal to the
 * expected token.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ServiceError } from '../errors.ts';
import {
  CSRF_FIELD,
  crossSiteReason,
  csrfTokenFor,
  preSessionToken,
  readSessionToken,
  sameToken,
  sentPreSessionToken,
} from '../http/session.ts';
import type { Services } from '../services.ts';
import { resolveSession } from '../sessions/sessions.ts';
import type { WebEnv } from './env.ts';
import { LANG_COOKIE, pickLang } from './i18n/i18n.ts';

export class FormTokenError extends ServiceError {
  constructor(reason: string) {
    super('FORBIDDEN', `CSRF check failed: ${reason}`);
  }
}

export function loadViewer(services: Services): MiddlewareHandler<WebEnv> {
  const sessionDeps = { state: services.state, now: services.now, sessions: services.config.web.session };
  return async (c, next) => {
    c.set('lang', pickLang(getCookie(c, LANG_COOKIE), c.req.header('accept-language')));
    const token = readSessionToken(c);
    const resolved = token === undefined ? undefined : await resolveSession(sessionDeps, token);
    if (token !== undefined && resolved) {
      const { account, session } = resolved;
      c.set('viewer', {
        accountId: account.id,
        email: account.email,
        name: account.name,
        roles: [...account.roles],
        sessionId: session.id,
      });
      c.set('formToken', await csrfTokenFor(token));
    } else {
      c.set('formToken', preSessionToken(c, services.config.web.trustProxy));
    }
    await next();
  };
}

/** A local path to return to after sign-in: only same-origin paths, else `/`. */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 2048 || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/';
  return /[\u0000-\u001f]/.test(next) ? '/' : next;
}

export const requireViewer: MiddlewareHandler<WebEnv> = async (c, next) => {
  if (c.get('viewer')) return next();
  const url = new URL(c.req.url);
  const hadSession = readSessionToken(c) !== undefined;
  const query = new URLSearchParams({ next: safeNext(url.pathname + url.search) });
  if (hadSession) query.set('ended', '1');
  return c.redirect(`/signin?${query}`, 303);
};

/** Throws FormTokenError unless the posted form passes the CSRF rule (see the module header). */
export function assertFormToken(c: Context<WebEnv>, form: Record<string, unknown>, trustProxy: boolean): void {
  const reason = crossSiteReason(c, trustProxy);
  if (reason !== undefined) throw new FormTokenError(reason);
  const presented = typeof form[CSRF_FIELD] === 'string' ? (form[CSRF_FIELD] as string) : undefined;
  const expected = c.get('viewer') ? c.get('formToken') : sentPreSessionToken(c);
  if (expected === undefined || !sameToken(presented, expected))
    throw new FormTokenError('missing or wrong form token');
}
