/**
 * Dashboard, connectors (`/admin/connectors`, issue 26): each connector as
 * `GET /api/admin/connectors` lists it — its type, datasource and schedule,
 * its state (running, idle, paused), the current run's progress, the last
 * run with its counts, error and the items that failed or were skipped, the
 * last success and the next run — with buttons that start a run now, pause
 * or resume it and delete it, and a form that creates one. Every change goes
 * to the admin API (`/api/admin/connectors…`) with the administrator's
 * session, so its rules and messages hold (a paused connector's run is
 * refused 409). Credentials are never shown: the API answers them masked.
 * Without a connector scheduler (a server built without the document
 * pipeline) the page says so.
 */
import { Hono } from 'hono';
import { listConnectorTypes, listConnectors, type ConnectorView } from '../../../connectors/connectors.ts';
import type { RunView } from '../../../connectors/run-log.ts';
import { listDatasources } from '../../../controlplane/index.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang, type MessageKey } from '../../i18n/i18n.ts';
import { count, seg, when } from './format.ts';
import { ApiForm, Field, Submit, TextArea } from './forms.tsx';
import { adminPage } from './shell.tsx';

/** Failed or skipped items listed per run (the API keeps up to 100). */
const FAILURES_SHOWN = 20;

const api = (c: ConnectorView) => `/api/admin/connectors/${seg(c.id)}`;

function RunFacts({ lang, run }: { lang: Lang; run: RunView }) {
  const k = run.counts;
  return (
    <>
      {t(lang, 'admin.conn.run', {
        n: run.run,
        state: t(lang, `admin.conn.runState.${run.state}` as MessageKey),
        at: when(lang, run.finished_at ?? run.started_at),
      })}{' '}
      {t(lang, 'admin.conn.counts', {
        sent: count(lang, k.sent),
        unchanged: count(lang, k.unchanged + k.already_indexed),
        skipped: count(lang, k.skipped),
        failed: count(lang, k.failed),
        deleted: count(lang, k.deleted),
      })}
    </>
  );
}

function Failures({ lang, run }: { lang: Lang; run: RunView }) {
  const n = run.failures.length + run.failures_omitted;
  if (n === 0) return null;
  return (
    <details>
      <summary>{t(lang, 'admin.conn.failures', { n: count(lang, n) })}</summary>
      <ul class="failures">
        {run.failures.slice(0, FAILURES_SHOWN).map((f) => (
          <li>
            <code>{f.item}</code>: {f.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Status({ lang, c }: { lang: Lang; c: ConnectorView }) {
  const s = c.status;
  const last = s.last_run;
  const rows: [MessageKey, unknown][] = [
    ['admin.conn.state', t(lang, `admin.conn.state.${s.state}` as MessageKey)],
    [
      'admin.conn.progress',
      s.current_run &&
        t(lang, 'admin.conn.progressOf', {
          done: count(lang, s.current_run.progress.done),
          total: count(lang, s.current_run.progress.total),
        }),
    ],
    ['admin.conn.lastRun', last ? <RunFacts lang={lang} run={last} /> : t(lang, 'admin.conn.never')],
    ['admin.conn.error', last?.error],
    ['admin.conn.incomplete', last?.incomplete],
    ['admin.conn.lastSuccess', s.last_success_at ? when(lang, s.last_success_at) : t(lang, 'admin.conn.never')],
    ['admin.conn.nextRun', s.next_run_at ? when(lang, s.next_run_at) : '–'],
  ];
  return (
    <dl class="pairs">
      {rows
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([key, v]) => (
          <div>
            <dt>{t(lang, key)}</dt>
            <dd>{v as string}</dd>
          </div>
        ))}
    </dl>
  );
}

function Actions({ lang, c }: { lang: Lang; c: ConnectorView }) {
  const name = c.name;
  const paused = c.paused;
  return (
    <div class="row">
      <ApiForm
        lang={lang}
        method="POST"
        path={`${api(c)}/run`}
        label={t(lang, 'admin.conn.runNowOf', { name })}
        done={t(lang, 'admin.conn.started')}
        class="tiny"
      >
        <Submit label={t(lang, 'admin.conn.runNow')} ariaLabel={t(lang, 'admin.conn.runNowOf', { name })} />
      </ApiForm>
      <ApiForm
        lang={lang}
        method="POST"
        path={`${api(c)}/${paused ? 'resume' : 'pause'}`}
        label={t(lang, paused ? 'admin.conn.resumeOf' : 'admin.conn.pauseOf', { name })}
        done={t(lang, paused ? 'admin.conn.resumed' : 'admin.conn.paused')}
        class="tiny"
      >
        <Submit
          label={t(lang, paused ? 'admin.conn.resume' : 'admin.conn.pause')}
          ariaLabel={t(lang, paused ? 'admin.conn.resumeOf' : 'admin.conn.pauseOf', { name })}
        />
      </ApiForm>
      <ApiForm
        lang={lang}
        method="DELETE"
        path={api(c)}
        label={t(lang, 'admin.conn.deleteOf', { name })}
        confirm={t(lang, 'admin.conn.confirm', { name, datasource: c.datasource })}
        done={t(lang, 'admin.deleted')}
        class="tiny"
      >
        <Submit danger label={t(lang, 'admin.delete')} ariaLabel={t(lang, 'admin.conn.deleteOf', { name })} />
      </ApiForm>
    </div>
  );
}

function Connector({ lang, c, i }: { lang: Lang; c: ConnectorView; i: number }) {
  const schedule =
    c.interval_minutes === null
      ? t(lang, 'admin.conn.onDemand')
      : t(lang, 'admin.conn.every', { n: count(lang, c.interval_minutes) });
  return (
    <article class="card connector" aria-labelledby={`conn-${i}`}>
      <h2 id={`conn-${i}`}>{c.name}</h2>
      <p class="hint">
        {t(lang, 'admin.conn.summary', { type: c.type, datasource: c.datasource, schedule })} <code>{c.id}</code>
      </p>
      <Status lang={lang} c={c} />
      {c.status.last_run && <Failures lang={lang} run={c.status.last_run} />}
      <Actions lang={lang} c={c} />
    </article>
  );
}

function CreateForm({ lang, datasources }: { lang: Lang; datasources: string[] }) {
  const types = listConnectorTypes().types;
  return (
    <section aria-labelledby="conn-new">
      <h2 id="conn-new">{t(lang, 'admin.conn.create')}</h2>
      <ApiForm
        lang={lang}
        method="POST"
        path="/api/admin/connectors"
        label={t(lang, 'admin.conn.create')}
        done={t(lang, 'admin.conn.created')}
      >
        <Field id="conn-name" name="name" label={t(lang, 'admin.conn.name')} required />
        <div class="field">
          <label for="conn-type">{t(lang, 'admin.conn.type')}</label>
          <select id="conn-type" name="type" required>
            {types.map((ty) => (
              <option value={ty.type}>{`${ty.type} – ${ty.description}`}</option>
            ))}
          </select>
        </div>
        <datalist id="conn-datasources">
          {datasources.map((d) => (
            <option value={d} />
          ))}
        </datalist>
        <div class="field">
          <label for="conn-ds">{t(lang, 'admin.conn.datasource')}</label>
          <input id="conn-ds" name="datasource" list="conn-datasources" required autocomplete="off" />
        </div>
        <Field
          id="conn-interval"
          name="interval_minutes"
          type="number"
          kind="number"
          value={60}
          label={t(lang, 'admin.conn.interval')}
          hint={t(lang, 'admin.conn.intervalHint')}
        />
        <TextArea
          id="conn-settings"
          name="settings"
          kind="json"
          value="{}"
          rows={4}
          label={t(lang, 'admin.conn.settings')}
          hint={t(lang, 'admin.conn.settingsHint')}
        />
        <TextArea
          id="conn-credentials"
          name="credentials"
          kind="json"
          value="null"
          rows={2}
          label={t(lang, 'admin.conn.credentials')}
          hint={t(lang, 'admin.conn.credentialsHint')}
        />
        <Submit label={t(lang, 'admin.conn.create')} />
      </ApiForm>
    </section>
  );
}

export function connectorsRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/connectors', (c) => {
    const lang = c.get('lang');
    const scheduler = services.connectors;
    const deps = scheduler && { state: services.state, now: services.now, config: services.config, scheduler };
    const connectors = deps ? listConnectors(deps).connectors : [];
    return adminPage(c, assets, {
      section: 'connectors',
      title: t(lang, 'admin.nav.connectors'),
      intro: t(lang, 'admin.conn.intro'),
      children: !deps ? (
        <p>{t(lang, 'admin.conn.unavailable')}</p>
      ) : (
        <>
          {connectors.length === 0 && <p>{t(lang, 'admin.conn.none')}</p>}
          {connectors.map((x, i) => (
            <Connector lang={lang} c={x} i={i} />
          ))}
          <CreateForm lang={lang} datasources={listDatasources(services).map((d) => d.name)} />
        </>
      ),
    });
  });
  return app;
}
