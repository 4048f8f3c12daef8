/**
 * The search page's notice about search analytics and the button that
 * deletes the viewer's own search history (GDPR erasure): a collapsed
 * section saying what is recorded in the current mode, and a form posting
 * to `/settings/search-history` (CSRF field). The route deletes every
 * record naming the account (the same domain function as
 * DELETE /api/analytics/history) and returns to the search page, which
 * says how many records were removed. Works without scripts.
 */
import { Hono } from 'hono';
import type { Services } from '../../../services.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { formBodyLimit, readForm } from '../../form.ts';
import { CsrfField } from '../../layout.tsx';
import { assertFormToken, requireViewer } from '../../viewer.ts';

/** The address parameter the search page reads after a deletion. */
export const DELETED_PARAM = 'history_deleted';

export function SearchHistory(props: { lang: Lang; services: Services; formToken: string; deleted: string | null }) {
  const { lang, services } = props;
  const mode = services.analytics?.mode ?? 'off';
  const deleted = props.deleted !== null && /^\d{1,9}$/.test(props.deleted) ? Number(props.deleted) : undefined;
  return (
    <details class="search-history" open={deleted !== undefined}>
      <summary>{t(lang, 'analytics.history')}</summary>
      {deleted !== undefined && (
        <p class="status" role="status">
          {t(lang, 'analytics.history.deleted', { count: deleted })}
        </p>
      )}
      <p class="hint">{t(lang, `analytics.history.${mode}`)}</p>
      <form method="post" action="/settings/search-history">
        <CsrfField token={props.formToken} />
        <button type="submit" aria-describedby="search-history-hint">
          {t(lang, 'analytics.history.delete')}
        </button>
        <p class="hint" id="search-history-hint">
          {t(lang, 'analytics.history.deleteHint')}
        </p>
      </form>
    </details>
  );
}

export function searchHistoryRoutes(services: Services): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.post('/settings/search-history', formBodyLimit, requireViewer, async (c) => {
    assertFormToken(c, await readForm(c), services.config.web.trustProxy);
    const removed = services.analytics ? await services.analytics.deleteHistory(c.get('viewer')!.accountId) : 0;
    return c.redirect(`/?${DELETED_PARAM}=${removed}`, 303);
  });
  return app;
}
