/**
 * Dashboard overview (`/admin`): the figures of `GET /api/admin/stats`, read
 * through the same domain function (src/admin/stats.ts): version and uptime,
 * documents, queued operations, the last commit, the index and the disk;
 * per datasource its documents, pending, skipped and failed; and the latest
 * skipped and failed documents with their messages.
 */
import { Hono } from 'hono';
import { serverStats, type ServerStats } from '../../../admin/stats.ts';
import { statsDepsOf } from '../../../routes/admin.stats.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { bytes, count, duration, seg, when } from './format.ts';
import { Cell, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

function Figure(props: { label: string; value: string; note?: string }) {
  return (
    <div class="figure">
      <dt>{props.label}</dt>
      <dd>
        {props.value}
        {props.note && <span class="hint"> {props.note}</span>}
      </dd>
    </div>
  );
}

function Figures({ lang, s }: { lang: Lang; s: ServerStats }) {
  const total = s.datasources.reduce((n, d) => n + d.documents, 0);
  const disk = s.disk;
  return (
    <dl class="figures">
      <Figure label={t(lang, 'admin.overview.documents')} value={count(lang, total)} />
      <Figure label={t(lang, 'admin.overview.queued')} value={count(lang, s.operations.queued)} />
      <Figure label={t(lang, 'admin.overview.lastCommit')} value={when(lang, s.last_commit_at)} />
      <Figure
        label={t(lang, 'admin.overview.index')}
        value={s.index ? bytes(lang, s.index.size_bytes) : '–'}
        note={
          s.index
            ? t(lang, 'admin.overview.segments', { n: s.index.segments, deleted: s.index.deleted_documents })
            : undefined
        }
      />
      <Figure
        label={t(lang, 'admin.overview.disk')}
        value={bytes(lang, disk.used_bytes) + (disk.complete ? '' : '+')}
        note={
          disk.free_bytes === null ? undefined : t(lang, 'admin.overview.free', { free: bytes(lang, disk.free_bytes) })
        }
      />
      <Figure label={t(lang, 'admin.overview.version')} value={s.version} />
      <Figure label={t(lang, 'admin.overview.uptime')} value={duration(lang, s.uptime_seconds)} />
    </dl>
  );
}

function PerDatasource({ lang, s }: { lang: Lang; s: ServerStats }) {
  if (s.datasources.length === 0) return <p>{t(lang, 'admin.overview.noDatasources')}</p>;
  const head = ['name', 'documents', 'pending', 'skipped', 'failed'].map((k) =>
    t(lang, `admin.overview.col.${k}` as 'admin.overview.col.name'),
  );
  return (
    <Table caption={t(lang, 'admin.overview.perDatasource')} head={head} captionHidden>
      {s.datasources.map((d) => (
        <tr>
          <Cell label={head[0]}>
            <a href={`/admin/datasources/${seg(d.name)}`}>{d.display_name}</a> <span class="hint">({d.name})</span>
          </Cell>
          <Cell label={head[1]} class="num">
            {count(lang, d.documents)}
          </Cell>
          <Cell label={head[2]} class="num">
            {count(lang, d.pending)}
          </Cell>
          <Cell label={head[3]} class="num">
            {count(lang, d.skipped)}
          </Cell>
          <Cell label={head[4]} class="num">
            {count(lang, d.failed)}
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

function Rejected({ lang, s }: { lang: Lang; s: ServerStats }) {
  if (s.rejected.length === 0) return <p>{t(lang, 'admin.overview.noRejected')}</p>;
  const head = ['document', 'state', 'message', 'received'].map((k) =>
    t(lang, `admin.overview.col.${k}` as 'admin.overview.col.name'),
  );
  return (
    <>
      {s.rejected_total > s.rejected.length && (
        <p class="hint">
          {t(lang, 'admin.overview.rejectedShown', { shown: s.rejected.length, total: s.rejected_total })}
        </p>
      )}
      <Table caption={t(lang, 'admin.overview.rejected')} head={head} captionHidden>
        {s.rejected.map((r) => (
          <tr>
            <Cell label={head[0]}>
              <a href={`/admin/documents?datasource=${seg(r.datasource)}&id=${seg(r.document_id)}`}>
                {r.datasource} / {r.document_id}
              </a>
            </Cell>
            <Cell label={head[1]}>{t(lang, r.state === 'failed' ? 'admin.state.failed' : 'admin.state.skipped')}</Cell>
            <Cell label={head[2]}>{r.message}</Cell>
            <Cell label={head[3]}>{when(lang, r.received_at)}</Cell>
          </tr>
        ))}
      </Table>
    </>
  );
}

export function overviewRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const deps = statsDepsOf(services);
  app.get('/admin', async (c) => {
    const lang = c.get('lang');
    const s = await serverStats(deps);
    return adminPage(c, assets, {
      section: 'overview',
      title: t(lang, 'admin.nav.overview'),
      children: (
        <>
          <section aria-labelledby="ov-figures">
            <h2 id="ov-figures" class="visually-hidden">
              {t(lang, 'admin.overview.figures')}
            </h2>
            <Figures lang={lang} s={s} />
          </section>
          <section aria-labelledby="ov-ds">
            <h2 id="ov-ds">{t(lang, 'admin.overview.perDatasource')}</h2>
            <PerDatasource lang={lang} s={s} />
          </section>
          <section aria-labelledby="ov-rejected">
            <h2 id="ov-rejected">{t(lang, 'admin.overview.rejected')}</h2>
            <Rejected lang={lang} s={s} />
          </section>
        </>
      ),
    });
  });
  return app;
}
