/**
 * The web app: the pages people use in a browser, served by the same Hono
 * app as the API (mounted in src/app.ts when the assets are loaded).
 *
 * - `/assets/*`: the stylesheet, browser modules and icon (assets/store.ts),
 *   content-hashed, cached for a year, Brotli or gzip as the browser accepts.
 * - Pages (`/`, `/chat…`, `/admin…`, `/signin…`, `/signout`, `/settings/…`): security
 *   headers (security.ts), compression, the viewer and language (viewer.ts);
 *   signed-in pages send visitors to `/signin` first.
 * Pages read data only through the domain functions the API uses, for the
 * signed-in account, with the same visibility; the browser modules call the
 * public API with the session cookie and the CSRF header.
 * Errors on pages are answered as pages (`errorPage`), never as JSON.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { compress } from 'hono/compress';
import { ServiceError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { WebAssets } from './assets/store.ts';
import type { WebEnv } from './env.ts';
import { t } from './i18n/i18n.ts';
import { Page } from './layout.tsx';
import { adminPageRoutes } from './pages/admin/index.tsx';
import { chatPageRoutes } from './pages/chat.tsx';
import { searchPageRoutes } from './pages/search.tsx';
import { searchHistoryRoutes } from './pages/search/history.tsx';
import { analyticsPageRoutes } from './pages/admin/analytics.tsx';
import { signInRoutes } from './pages/sign-in.tsx';
import { ssoRoutes } from './pages/sso.tsx';
import { securityHeaders } from './security.ts';
import { FormTokenError, loadViewer, requireViewer, safeNext } from './viewer.ts';

/** Paths of the pages (the API's paths are never touched by the page middleware). */
export const PAGE_PATH = /^\/(?:|signin(?:\/.*)?|signout|settings\/.*|chat(?:\/.*)?|admin(?:\/.*)?)$/;
/** Pages that need a signed-in viewer (the dashboard also the administrator role: pages/admin/shell.tsx). */
const SIGNED_IN_PATH = /^\/(?:|chat(?:\/.*)?|admin(?:\/.*)?)$/;

function serveAsset(assets: WebAssets) {
  return (c: Context<WebEnv>) => {
    const asset = assets.get(c.req.path);
    if (!asset) return c.text('Not Found', 404);
    const accepted = (c.req.header('accept-encoding') ?? '').toLowerCase();
    const [body, encoding] = /\bbr\b/.test(accepted)
      ? [asset.br, 'br']
      : /\bgzip\b/.test(accepted)
        ? [asset.gzip, 'gzip']
        : [asset.body, undefined];
    const headers: Record<string, string> = {
      'content-type': asset.type,
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'Accept-Encoding',
    };
    if (encoding) headers['content-encoding'] = encoding;
    return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
  };
}

export function errorPage(
  c: Context<WebEnv>,
  assets: WebAssets,
  status: number,
  message: string,
): Response | Promise<Response> {
  const lang = c.get('lang') ?? 'de';
  const here = new URL(c.req.url);
  return c.html(
    <Page
      lang={lang}
      title={t(lang, 'error.title')}
      assets={assets}
      formToken={c.get('formToken') ?? ''}
      viewer={c.get('viewer')}
      here={safeNext(here.pathname + here.search)}
    >
      <section class="card narrow" aria-labelledby="error-title">
        <h1 id="error-title">{t(lang, 'error.title')}</h1>
        <p role="alert">{message}</p>
        <p>
          <a href="/">{t(lang, 'error.back')}</a>
        </p>
      </section>
    </Page>,
    status as 500,
  );
}

export function webRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/assets/*', securityHeaders('asset'), serveAsset(assets));
  const signedIn: MiddlewareHandler<WebEnv> = (c, next) =>
    SIGNED_IN_PATH.test(c.req.path) ? requireViewer(c, next) : next();
  const issuer = services.config.web.oidc?.issuer;
  const formTargets = issuer === undefined ? [] : [new URL(issuer).origin];
  const pageStack = every(securityHeaders('page', formTargets), compress(), loadViewer(services), signedIn);
  app.use('*', (c, next) => (PAGE_PATH.test(c.req.path) ? pageStack(c, next) : next()));

  app.route('/', signInRoutes(services, assets));
  app.route('/', ssoRoutes(services, assets));
  app.route('/', searchPageRoutes(services, assets));
  app.route('/', chatPageRoutes(services, assets));
  app.route('/', searchHistoryRoutes(services));
  // Before the dashboard's guard (its `/admin/*` middleware): the analytics page answers its own 403.
  app.route('/', analyticsPageRoutes(services, assets));
  app.route('/', adminPageRoutes(services, assets));

  app.onError((err, c) => {
    const lang = c.get('lang') ?? 'de';
    if (err instanceof FormTokenError) return errorPage(c, assets, 403, t(lang, 'error.forbidden'));
    if (err instanceof ServiceError && err.status < 500) return errorPage(c, assets, err.status, err.message);
    services.log.error('page error', { error: String(err), stack: err instanceof Error ? err.stack : undefined });
    const requestId = c.get('requestId') ?? 'unknown';
    return errorPage(c, assets, 500, `${t(lang, 'error.title')} (request id ${requestId})`);
  });
  return app;
}
