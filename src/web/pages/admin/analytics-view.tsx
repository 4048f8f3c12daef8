/**
 * The parts of the analytics page that show a report: the summary figures
 * (a description list), the tables of top and zero-result searches, and the
 * feedback on chat answers (newest first; the question and the answer in
 * collapsed sections, as they can be long). Numbers and times are formatted
 * in the page language (times in UTC, as recorded). All text through JSX.
 */
import type { AnalyticsReport, FeedbackItem, QueryCount } from '../../../analytics/report.ts';
import { locale, t, type Lang } from '../../i18n/i18n.ts';

function number(lang: Lang, n: number, digits = 0): string {
  return new Intl.NumberFormat(locale(lang), { maximumFractionDigits: digits }).format(n);
}

function time(lang: Lang, iso: string): string {
  return new Intl.DateTimeFormat(locale(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    Date.parse(iso),
  );
}

export function Summary(props: { lang: Lang; report: AnalyticsReport }) {
  const { lang, report } = props;
  const s = report.totals;
  const none = t(lang, 'analytics.none');
  const figures: [string, string, string?][] = [
    [t(lang, 'analytics.queries'), number(lang, s.queries)],
    [t(lang, 'analytics.zeroQueries'), number(lang, s.zero_result_queries)],
    [
      t(lang, 'analytics.ctr'),
      s.click_through_rate === null ? none : `${number(lang, s.click_through_rate * 100, 1)} %`,
      t(lang, 'analytics.ctrHint'),
    ],
    [
      t(lang, 'analytics.meanPosition'),
      s.mean_clicked_position === null ? none : number(lang, s.mean_clicked_position, 2),
    ],
    [t(lang, 'analytics.clicks'), number(lang, s.clicks)],
    [
      t(lang, report.mode === 'anonymous' ? 'analytics.searchersAnonymous' : 'analytics.searchers'),
      number(lang, s.searchers),
    ],
    [t(lang, 'analytics.feedbackCounts'), t(lang, 'analytics.upDown', { up: s.feedback_up, down: s.feedback_down })],
  ];
  return (
    <section class="analytics-summary" aria-labelledby="analytics-summary-title">
      <h2 id="analytics-summary-title">{t(lang, 'analytics.summary')}</h2>
      <p class="hint">{t(lang, 'analytics.range', { from: time(lang, report.from), to: time(lang, report.to) })}</p>
      <dl class="figures">
        {figures.map(([label, value, hint]) => (
          <div class="figure">
            <dt>{label}</dt>
            <dd class="figure-value">{value}</dd>
            {hint && <dd class="figure-hint">{hint}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}

export function QueryTable(props: { lang: Lang; id: string; title: string; rows: QueryCount[]; kind: 'top' | 'zero' }) {
  const { lang, rows } = props;
  const titleId = `analytics-${props.id}-title`;
  return (
    <section class="analytics-queries" aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {rows.length === 0 ? (
        <p class="hint">{t(lang, 'analytics.empty')}</p>
      ) : (
        <table id={`analytics-${props.id}`}>
          <thead>
            <tr>
              <th scope="col">{t(lang, 'analytics.query')}</th>
              <th scope="col" class="num">
                {t(lang, props.kind === 'top' ? 'analytics.count' : 'analytics.zeroCount')}
              </th>
              {props.kind === 'top' ? (
                <th scope="col" class="num">
                  {t(lang, 'analytics.clicked')}
                </th>
              ) : (
                <th scope="col">{t(lang, 'analytics.last')}</th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td class="query-text">{r.query}</td>
                <td class="num">{number(lang, r.count)}</td>
                {props.kind === 'top' ? (
                  <td class="num">{number(lang, r.clicked)}</td>
                ) : (
                  <td>
                    <time datetime={r.last_at}>{time(lang, r.last_at)}</time>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Feedback(props: { lang: Lang; item: FeedbackItem }) {
  const { lang, item } = props;
  return (
    <li class={`feedback feedback-${item.rating}`}>
      <p class="feedback-head">
        <strong class="feedback-rating">{t(lang, item.rating === 'up' ? 'analytics.up' : 'analytics.down')}</strong>
        <time datetime={item.at}>{time(lang, item.at)}</time>
        {item.conversation_id && (
          <span class="hint">{t(lang, 'analytics.conversation', { id: item.conversation_id })}</span>
        )}
      </p>
      <p class="feedback-comment">
        <span class="visually-hidden">{t(lang, 'analytics.comment')}: </span>
        {item.comment === '' ? <span class="hint">{t(lang, 'analytics.noComment')}</span> : item.comment}
      </p>
      {item.question !== '' && (
        <details>
          <summary>{t(lang, 'analytics.question')}</summary>
          <p class="feedback-text">{item.question}</p>
        </details>
      )}
      {item.answer !== '' && (
        <details>
          <summary>{t(lang, 'analytics.answer')}</summary>
          <p class="feedback-text">{item.answer}</p>
        </details>
      )}
    </li>
  );
}

export function FeedbackList(props: { lang: Lang; items: FeedbackItem[] }) {
  const { lang, items } = props;
  return (
    <section class="analytics-feedback" aria-labelledby="analytics-feedback-title">
      <h2 id="analytics-feedback-title">{t(lang, 'analytics.feedback')}</h2>
      {items.length === 0 ? (
        <p class="hint">{t(lang, 'analytics.feedbackEmpty')}</p>
      ) : (
        <ul class="feedback-list" id="analytics-feedback">
          {items.map((item) => (
            <Feedback lang={lang} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}
