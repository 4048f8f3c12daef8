/**
 * Dashboard, the audit log (`/admin/audit?from&to&actor&action&target`): the
 * records as `GET /api/admin/audit` answers them (newest first, at most
 * RECORDS_SHOWN), read with the audit log's own query, filtered by days (UTC,
 * both included; default the last 30 days), actor (exact), action (prefix,
 * e.g. `account.`) and target (substring); and a link that exports the
 * period as JSON lines (`GET /api/admin/audit/export`).
 */
import { Hono } from 'hono';
import type { AuditRecord } from '../../../audit/audit.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { when } from './format.ts';
import { Cell, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

export const RECORDS_SHOWN = 200;
const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Action prefixes offered in the filter (any prefix works). */
const ACTIONS = [
  'account.',
  'key.',
  'service_account.',
  'agent.',
  'datasource.',
  'sub.',
  'user.',
  'group.',
  'membership.',
  'settings.',
  'signin',
  'signout',
];

interface Filter {
  from: string;
  to: string;
  actor: string;
  action: string;
  target: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOf = (d: string) => Date.parse(`${d}T00:00:00.000Z`);

function readFilter(q: (k: string) => string | undefined, now: number): Filter {
  const text = (k: string, max: number) => (q(k) ?? '').trim().slice(0, max);
  const to = DAY.test(text('to', 10)) && !Number.isNaN(startOf(text('to', 10))) ? text('to', 10) : day(now);
  const from =
    DAY.test(text('from', 10)) && !Number.isNaN(startOf(text('from', 10)))
      ? text('from', 10)
      : day(startOf(to) - 29 * DAY_MS);
  return { from, to, actor: text('actor', 320), action: text('action', 100), target: text('target', 1000) };
}

function FilterForm({ lang, f }: { lang: Lang; f: Filter }) {
  const input = (id: keyof Filter, type = 'text', list?: string) => (
    <div class="field">
      <label for={`audit-${id}`}>{t(lang, `admin.audit.${id}` as 'admin.audit.from')}</label>
      <input id={`audit-${id}`} name={id} type={type} value={f[id]} list={list} autocomplete="off" />
    </div>
  );
  return (
    <form method="get" action="/admin/audit" class="inline" aria-label={t(lang, 'admin.audit.filters')}>
      {input('from', 'date')}
      {input('to', 'date')}
      {input('actor')}
      {input('action', 'text', 'audit-actions')}
      {input('target')}
      <datalist id="audit-actions">
        {ACTIONS.map((a) => (
          <option value={a} />
        ))}
      </datalist>
      <button type="submit" class="primary">
        {t(lang, 'admin.filter')}
      </button>
    </form>
  );
}

function Records({ lang, records }: { lang: Lang; records: AuditRecord[] }) {
  if (records.length === 0) return <p>{t(lang, 'admin.audit.none')}</p>;
  const head = ['at', 'actor', 'action', 'target', 'address', 'details'].map((k) =>
    t(lang, `admin.audit.col.${k}` as 'admin.audit.col.at'),
  );
  return (
    <Table caption={t(lang, 'admin.audit.records')} head={head} captionHidden>
      {records.map((r) => (
        <tr>
          <Cell label={head[0]}>{when(lang, r.at)}</Cell>
          <Cell label={head[1]}>{r.actor}</Cell>
          <Cell label={head[2]}>
            <code>{r.action}</code>
          </Cell>
          <Cell label={head[3]}>{r.target}</Cell>
          <Cell label={head[4]}>{r.address}</Cell>
          <Cell label={head[5]}>
            <details>
              <summary>{t(lang, 'admin.audit.show')}</summary>
              <pre>{JSON.stringify(r.details, null, 2)}</pre>
            </details>
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

export function auditRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/audit', async (c) => {
    const lang = c.get('lang');
    const f = readFilter((k) => c.req.query(k), services.now());
    const fromMs = startOf(f.from);
    const toMs = startOf(f.to) + DAY_MS - 1;
    const records = services.audit
      ? await services.audit.query({
          fromMs,
          toMs,
          actor: f.actor ? (f.actor.includes('@') ? f.actor.toLowerCase() : f.actor) : undefined,
          action: f.action || undefined,
          target: f.target || undefined,
          limit: RECORDS_SHOWN,
        })
      : [];
    const range = new URLSearchParams({ from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() });
    return adminPage(c, assets, {
      section: 'audit',
      title: t(lang, 'admin.nav.audit'),
      intro: t(lang, 'admin.audit.intro'),
      children: services.audit ? (
        <>
          <FilterForm lang={lang} f={f} />
          <p>
            <a href={`/api/admin/audit/export?${range}`} download>
              {t(lang, 'admin.audit.export', { from: f.from, to: f.to })}
            </a>
          </p>
          {records.length === RECORDS_SHOWN && <p class="hint">{t(lang, 'admin.audit.more', { n: RECORDS_SHOWN })}</p>}
          <Records lang={lang} records={records} />
        </>
      ) : (
        <p>{t(lang, 'admin.audit.off')}</p>
      ),
    });
  });
  return app;
}
