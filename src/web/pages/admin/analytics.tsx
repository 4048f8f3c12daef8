/**
 * The dashboard's analytics page at `/admin/analytics` (administrators only:
 * others get a 403 page; visitors who are not signed in the sign-in page).
 *
 * Rendered in the dashboard's frame (shell.tsx, section `analytics`).
 * The period comes from the address (`from`, `to`: days `YYYY-MM-DD`, UTC,
 * inclusive; default the last 30 days), validated by the same rules as
 * GET /api/admin/analytics (analytics/period.ts), and the report is the same
 * domain function's (analytics.report). A bad period is answered 422 with
 * the page and a message, never an error page. A GET form without scripts
 * chooses the period; links offer the last 7, 30 and 90 days. Every text
 * (queries, comments, questions, answers) is escaped by JSX.
 */
import { Hono } from 'hono';
import { parsePeriod, type Period } from '../../../analytics/period.ts';
import type { AnalyticsReport } from '../../../analytics/report.ts';
import { forbidden, RequestValidationError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { dayOf } from '../../../storage/daily-log.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang, type MessageKey } from '../../i18n/i18n.ts';
import { FeedbackList, QueryTable, Summary } from './analytics-view.tsx';
import { adminPage } from './shell.tsx';

const DAY_MS = 86_400_000;
const PRESETS = [7, 30, 90] as const;

function PeriodForm(props: { lang: Lang; from: string; to: string; today: string }) {
  const { lang } = props;
  const since = (days: number) => dayOf(Date.parse(props.today) - (days - 1) * DAY_MS);
  return (
    <form method="get" action="/admin/analytics" class="analytics-period" aria-labelledby="analytics-period-title">
      <h2 id="analytics-period-title" class="visually-hidden">
        {t(lang, 'analytics.period')}
      </h2>
      <div class="filter">
        <label for="a-from">{t(lang, 'analytics.from')}</label>
        <input type="date" id="a-from" name="from" value={props.from} max={props.today} />
      </div>
      <div class="filter">
        <label for="a-to">{t(lang, 'analytics.to')}</label>
        <input type="date" id="a-to" name="to" value={props.to} max={props.today} />
      </div>
      <button type="submit" class="primary">
        {t(lang, 'analytics.show')}
      </button>
      <ul class="analytics-presets">
        {PRESETS.map((days) => (
          <li>
            <a href={`/admin/analytics?from=${since(days)}&to=${props.today}`}>{t(lang, `analytics.last${days}`)}</a>
          </li>
        ))}
      </ul>
    </form>
  );
}

function Report(props: { lang: Lang; report: AnalyticsReport }) {
  const { lang, report } = props;
  return (
    <>
      <Summary lang={lang} report={report} />
      {report.truncated && <p class="hint">{t(lang, 'analytics.truncated')}</p>}
      <QueryTable lang={lang} id="top" title={t(lang, 'analytics.top')} rows={report.top_queries} kind="top" />
      <QueryTable
        lang={lang}
        id="zero"
        title={t(lang, 'analytics.zero')}
        rows={report.zero_result_queries}
        kind="zero"
      />
      <FeedbackList lang={lang} items={report.feedback} />
    </>
  );
}

export function analyticsPageRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/analytics', async (c) => {
    const lang = c.get('lang');
    if (!c.get('viewer')!.roles.includes('administrator')) throw forbidden(t(lang, 'analytics.forbidden'));
    const url = new URL(c.req.url);
    const today = dayOf(services.now());
    const from = url.searchParams.get('from') ?? dayOf(services.now() - 29 * DAY_MS);
    const to = url.searchParams.get('to') ?? today;
    let period: Period | undefined;
    let problems: MessageKey[] = [];
    try {
      period = parsePeriod({ from, to }, services.now());
    } catch (err) {
      if (!(err instanceof RequestValidationError)) throw err;
      const fields = new Set(err.items.map((i) => String(i.loc[1])));
      problems = (['from', 'to'] as const).filter((f) => fields.has(f)).map((f) => `analytics.invalid.${f}` as const);
    }
    const report = period && services.analytics ? await services.analytics.report(period) : undefined;
    const mode = services.analytics?.mode ?? 'off';
    const days = services.analytics?.retentionDays ?? 0;
    const intro = `${t(lang, `analytics.mode.${mode}`)} ${
      days > 0 ? t(lang, 'analytics.retention', { days }) : t(lang, 'analytics.retentionForever')
    }`;
    return adminPage(
      c,
      assets,
      {
        section: 'analytics',
        title: t(lang, 'analytics.title'),
        intro,
        children: (
          <div class="analytics">
            <PeriodForm lang={lang} from={from.slice(0, 10)} to={to.slice(0, 10)} today={today} />
            {problems.length > 0 && (
              <div class="error" role="alert">
                <p>{t(lang, 'analytics.invalid')}</p>
                <ul>
                  {problems.map((key) => (
                    <li>{t(lang, key)}</li>
                  ))}
                </ul>
              </div>
            )}
            {report && <Report lang={lang} report={report} />}
          </div>
        ),
      },
      problems.length > 0 ? 422 : 200,
    );
  });
  return app;
}
