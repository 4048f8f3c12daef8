/**
 * Single sign-on pages: POST /signin/oidc starts the OpenID Connect flow (a
 * form with the CSRF token, so no other site can start it), keeps the flow's
 * `state` in the short-lived `es_oidc` cookie and sends the browser to the
 * provider; GET /signin/oidc/callback finishes it (sessions/oidc.ts checks
 * the state against that cookie, the code, the ID token and the email) and
 * sets the session cookie. Failures show the sign-in page with a message.
 */
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { clientAddress, isHttps, requestOrigin } from '../../http/client.ts';
import { setSessionCookie } from '../../http/session.ts';
import type { Services } from '../../services.ts';
import { PENDING_TTL_MS, SsoError } from '../../sessions/oidc.ts';
import type { WebAssets } from '../assets/store.ts';
import type { WebEnv } from '../env.ts';
import { formBodyLimit, readForm } from '../form.ts';
import { t, type MessageKey } from '../i18n/i18n.ts';
import { assertFormToken, safeNext } from '../viewer.ts';
import { renderSignIn } from './sign-in-views.tsx';
import { auditSignIn } from '../audit.ts';

export const STATE_COOKIE = 'es_oidc';
const CALLBACK = '/signin/oidc/callback';

export function ssoRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const oidc = services.oidc;
  if (!oidc) return app;
  const trust = services.config.web.trustProxy;
  const origin = (c: Parameters<typeof requestOrigin>[0]) => services.config.web.publicUrl ?? requestOrigin(c, trust);
  const cookie = { path: '/signin/oidc', httpOnly: true, sameSite: 'Lax' as const };

  app.post('/signin/oidc', formBodyLimit, async (c) => {
    const form = await readForm(c);
    assertFormToken(c, form, trust);
    const next = safeNext(form.next);
    try {
      const { url, state } = await oidc.start(origin(c) + CALLBACK, next);
      setCookie(c, STATE_COOKIE, state, { ...cookie, secure: isHttps(c, trust), maxAge: PENDING_TTL_MS / 1000 });
      return c.redirect(url, 303);
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      const text = t(c.get('lang'), `sso.${err.code}` as MessageKey);
      return renderSignIn(c, services, assets, next, { notice: { kind: 'error', text } }, 502);
    }
  });

  app.get(CALLBACK, async (c) => {
    const cookieState = getCookie(c, STATE_COOKIE);
    deleteCookie(c, STATE_COOKIE, { ...cookie, secure: isHttps(c, trust) });
    try {
      const { token, next, email } = await oidc.finish(new URL(c.req.url), cookieState, {
        address: clientAddress(c, trust),
        userAgent: c.req.header('user-agent') ?? '',
      });
      setSessionCookie(c, token, services.config.web.session.maxMs, trust);
      await auditSignIn(c, services, 'signin.oidc', email);
      return c.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      await auditSignIn(c, services, 'signin.oidc_failed', err.email ?? '', { reason: err.code });
      const text = t(c.get('lang'), `sso.${err.code}` as MessageKey);
      const status = err.code === 'provider_unreachable' ? 502 : err.code === 'state_invalid' ? 400 : 401;
      return renderSignIn(c, services, assets, '/', { notice: { kind: 'error', text } }, status);
    }
  });

  return app;
}
