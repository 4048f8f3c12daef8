/**
 * The search page at `/` (signed in). Minimal first cut: the query box; the
 * full page (results, filters, paging) is built on this module.
 */
import { Hono } from 'hono';
import type { Services } from '../../services.ts';
import type { WebAssets } from '../assets/store.ts';
import type { WebEnv } from '../env.ts';
import { t } from '../i18n/i18n.ts';
import { Page } from '../layout.tsx';
import { safeNext } from '../viewer.ts';

export function searchPageRoutes(_services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/', (c) => {
    const lang = c.get('lang');
    const url = new URL(c.req.url);
    return c.html(
      <Page
        lang={lang}
        title={t(lang, 'nav.search')}
        assets={assets}
        formToken={c.get('formToken')}
        viewer={c.get('viewer')}
        current="search"
        scripts={['search']}
        here={safeNext(url.pathname + url.search)}
      >
        <form role="search" method="get" action="/" class="search-box">
          <label for="q" class="visually-hidden">
            {t(lang, 'nav.search')}
          </label>
          <input id="q" name="q" type="search" autofocus value={c.req.query('q') ?? ''} />
          <button type="submit">{t(lang, 'nav.search')}</button>
        </form>
      </Page>,
    );
  });
  return app;
}
