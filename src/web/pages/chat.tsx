/**
 * The chat page at `/chat` (signed in). Minimal first cut: the page frame;
 * the conversation UI is built on this module.
 */
import { Hono } from 'hono';
import type { Services } from '../../services.ts';
import type { WebAssets } from '../assets/store.ts';
import type { WebEnv } from '../env.ts';
import { t } from '../i18n/i18n.ts';
import { Page } from '../layout.tsx';
import { safeNext } from '../viewer.ts';

export function chatPageRoutes(_services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/chat', (c) => {
    const lang = c.get('lang');
    const url = new URL(c.req.url);
    return c.html(
      <Page
        lang={lang}
        title={t(lang, 'nav.chat')}
        assets={assets}
        formToken={c.get('formToken')}
        viewer={c.get('viewer')}
        current="chat"
        scripts={['chat']}
        here={safeNext(url.pathname + url.search)}
      >
        <h1>{t(lang, 'nav.chat')}</h1>
      </Page>,
    );
  });
  return app;
}
