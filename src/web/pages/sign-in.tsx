/**
 * Sign-in pages: the email and password form (GET/POST /signin), the
 * one-time link where a person chooses a password (GET/POST
 * /signin/link/{token}), sign-out (POST /signout) and the language switch
 * (POST /settings/language). Every post passes the form CSRF rule
 * (viewer.ts). Sign-in failures are answered on the form with one message,
 * whatever the reason (no account enumeration); throttling answers 429 with
 * `Retry-After`. The domain functions are src/sessions/ (signin.ts, links.ts,
 * sessions.ts); this module only reads forms, sets cookies and renders.
 */
import { Hono, type Context } from 'hono';
import type { Child } from 'hono/jsx';
import { setCookie } from 'hono/cookie';
import { PASSWORD_MIN_CHARS } from '../../accounts/passwords.ts';
import { ServiceError } from '../../errors.ts';
import { clientAddress, isHttps } from '../../http/client.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '../../http/session.ts';
import type { Services } from '../../services.ts';
import { LINK_INVALID, peekSignInLink, redeemSignInLink } from '../../sessions/links.ts';
import { endSessionByToken } from '../../sessions/sessions.ts';
import { signInWithPassword, type SignInDeps } from '../../sessions/signin.ts';
import type { WebEnv } from '../env.ts';
import { formBodyLimit, readForm } from '../form.ts';
import { LANG_COOKIE, isLang, t } from '../i18n/i18n.ts';
import { LinkForm, renderPage, renderSignIn, type Notice } from './sign-in-views.tsx';
import type { WebAssets } from '../assets/store.ts';
import { assertFormToken, safeNext } from '../viewer.ts';
import { auditSignIn } from '../audit.ts';

export function signInRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const trust = services.config.web.trustProxy;
  const deps: SignInDeps = {
    state: services.state,
    now: services.now,
    sessions: services.config.web.session,
    throttle: services.signInThrottle!,
  };
  const page = (c: Context<WebEnv>, title: string, body: Child, status = 200) =>
    renderPage(c, assets, title, body, status);
  const signInPage = (
    c: Context<WebEnv>,
    next: string,
    extra: { email?: string; notice?: Notice } = {},
    status = 200,
  ) => renderSignIn(c, services, assets, next, extra, status);

  app.get('/signin', (c) => {
    const next = safeNext(c.req.query('next'));
    if (c.get('viewer')) return c.redirect(next, 303);
    const lang = c.get('lang');
    const notice: Notice | undefined =
      c.req.query('signedout') !== undefined
        ? { kind: 'status', text: t(lang, 'signin.signedOut') }
        : c.req.query('ended') !== undefined
          ? { kind: 'status', text: t(lang, 'signin.expired') }
          : undefined;
    return signInPage(c, next, { notice });
  });

  app.post('/signin', formBodyLimit, async (c) => {
    const form = await readForm(c);
    const next = safeNext(form.next);
    const lang = c.get('lang');
    assertFormToken(c, form, trust);
    if (!services.config.web.passwordSignIn) {
      return signInPage(c, next, { notice: { kind: 'error', text: t(lang, 'signin.passwordsOff') } }, 403);
    }
    try {
      const { token } = await signInWithPassword(deps, {
        email: form.email ?? '',
        password: form.password ?? '',
        address: clientAddress(c, trust),
        userAgent: c.req.header('user-agent') ?? '',
      });
      setSessionCookie(c, token, services.config.web.session.maxMs, trust);
      await auditSignIn(c, services, 'signin.password', form.email ?? '');
      return c.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const reason = err.kind === 'TOO_MANY_REQUESTS' ? 'throttled' : 'wrong email or password';
      if (err.kind === 'TOO_MANY_REQUESTS' || err.kind === 'UNAUTHORIZED') {
        await auditSignIn(c, services, 'signin.failed', form.email ?? '', { reason });
      }
      if (err.kind === 'TOO_MANY_REQUESTS') {
        const minutes = Math.max(1, Math.ceil((err.retryAfterSeconds ?? 60) / 60));
        c.header('Retry-After', String(Math.ceil(err.retryAfterSeconds ?? 60)));
        return signInPage(
          c,
          next,
          { email: form.email, notice: { kind: 'error', text: t(lang, 'signin.throttled', { minutes }) } },
          429,
        );
      }
      if (err.kind === 'UNAUTHORIZED') {
        return signInPage(
          c,
          next,
          { email: form.email, notice: { kind: 'error', text: t(lang, 'signin.wrong') } },
          401,
        );
      }
      throw err;
    }
  });

  app.get('/signin/link/:token', async (c) => {
    const lang = c.get('lang');
    if (!services.config.web.passwordSignIn) return linkInvalid(c);
    try {
      const { email } = await peekSignInLink(deps, c.req.param('token'));
      return page(
        c,
        t(lang, 'link.title'),
        <LinkForm lang={lang} token={c.get('formToken')} action={c.req.path} email={email} />,
      );
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'NOT_FOUND') return linkInvalid(c);
      throw err;
    }
  });

  const linkInvalid = (c: Context<WebEnv>) =>
    page(
      c,
      t(c.get('lang'), 'link.title'),
      <section class="card narrow">
        <h1>{t(c.get('lang'), 'link.title')}</h1>
        <p class="error" role="alert">
          {t(c.get('lang'), 'link.invalid')}
        </p>
      </section>,
      404,
    );

  app.post('/signin/link/:token', formBodyLimit, async (c) => {
    const form = await readForm(c);
    assertFormToken(c, form, trust);
    if (!services.config.web.passwordSignIn) return linkInvalid(c);
    const lang = c.get('lang');
    const linkToken = c.req.param('token');
    const again = async (error: string) => {
      try {
        const { email } = await peekSignInLink(deps, linkToken);
        return page(
          c,
          t(lang, 'link.title'),
          <LinkForm lang={lang} token={c.get('formToken')} action={c.req.path} email={email} error={error} />,
          400,
        );
      } catch {
        return linkInvalid(c);
      }
    };
    const password = form.password ?? '';
    if (password !== (form.confirm ?? '')) return again(t(lang, 'link.mismatch'));
    if ([...password].length < PASSWORD_MIN_CHARS) return again(t(lang, 'link.tooShort'));
    try {
      const address = clientAddress(c, trust);
      const { token, email } = await redeemSignInLink(deps, linkToken, password, {
        address,
        userAgent: c.req.header('user-agent') ?? '',
      });
      setSessionCookie(c, token, services.config.web.session.maxMs, trust);
      await auditSignIn(c, services, 'signin.link', email, { password_set: true });
      return c.redirect('/', 303);
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'NOT_FOUND' && err.message === LINK_INVALID)
        return linkInvalid(c);
      if (err instanceof ServiceError && err.kind === 'BAD_REQUEST') return again(err.message);
      throw err;
    }
  });

  app.post('/signout', formBodyLimit, async (c) => {
    const form = await readForm(c);
    assertFormToken(c, form, trust);
    const token = readSessionToken(c);
    if (token !== undefined) await endSessionByToken(deps, token);
    const viewer = c.get('viewer');
    if (viewer) await auditSignIn(c, services, 'signout', viewer.email);
    clearSessionCookie(c, trust);
    return c.redirect('/signin?signedout=1', 303);
  });

  app.post('/settings/language', formBodyLimit, async (c) => {
    const form = await readForm(c);
    assertFormToken(c, form, trust);
    if (isLang(form.lang)) {
      setCookie(c, LANG_COOKIE, form.lang, {
        path: '/',
        sameSite: 'Lax',
        secure: isHttps(c, trust),
        maxAge: 365 * 86400,
      });
    }
    return c.redirect(safeNext(form.next), 303);
  });

  return app;
}
