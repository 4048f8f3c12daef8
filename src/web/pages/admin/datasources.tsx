/**
 * Dashboard, datasources (`/admin/datasources`): the list with each one's
 * subs, users, groups and committed documents (read with the control plane's
 * domain functions, as `GET /api/indexing/datasources` answers them), and a
 * form that creates one through `POST /api/indexing/datasources` (then its
 * page opens). A datasource's own page is datasource.tsx.
 */
import { Hono } from 'hono';
import { documentsPerDatasource } from '../../../admin/stats.ts';
import { indexingState, listDatasources } from '../../../controlplane/index.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { count, seg } from './format.ts';
import { ApiForm, Cell, Field, Submit, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

function CreateForm({ lang }: { lang: Lang }) {
  return (
    <ApiForm
      lang={lang}
      method="POST"
      path="/api/indexing/datasources"
      label={t(lang, 'admin.ds.create')}
      done={t(lang, 'admin.ds.created')}
      next="/admin/datasources/{name}"
      class="inline"
    >
      <Field id="ds-name" name="name" label={t(lang, 'admin.ds.name')} required hint={t(lang, 'admin.ds.nameHint')} />
      <Field id="ds-display" name="display_name" label={t(lang, 'admin.ds.displayName')} required />
      <Submit label={t(lang, 'admin.ds.create')} />
    </ApiForm>
  );
}

export function datasourcesRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/datasources', (c) => {
    const lang = c.get('lang');
    const views = listDatasources(services);
    const state = indexingState(services);
    const docs = services.documents ? documentsPerDatasource(services.documents.index) : new Map<string, number>();
    const head = ['name', 'subs', 'users', 'groups', 'documents'].map((k) =>
      t(lang, `admin.ds.col.${k}` as 'admin.ds.col.name'),
    );
    return adminPage(c, assets, {
      section: 'datasources',
      title: t(lang, 'admin.nav.datasources'),
      intro: t(lang, 'admin.ds.intro'),
      children: (
        <>
          {views.length === 0 ? (
            <p>{t(lang, 'admin.overview.noDatasources')}</p>
          ) : (
            <Table caption={t(lang, 'admin.nav.datasources')} head={head} captionHidden>
              {views.map((v) => {
                const ds = state.datasources.get(v.name)!;
                const subs = v.subs.reduce((n, s) => n + 1 + s.children.length, 0);
                return (
                  <tr>
                    <Cell label={head[0]}>
                      <a href={`/admin/datasources/${seg(v.name)}`}>{v.display_name}</a>{' '}
                      <span class="hint">({v.name})</span>
                    </Cell>
                    <Cell label={head[1]} class="num">
                      {count(lang, subs)}
                    </Cell>
                    <Cell label={head[2]} class="num">
                      {count(lang, ds.users.size)}
                    </Cell>
                    <Cell label={head[3]} class="num">
                      {count(lang, ds.groups.size)}
                    </Cell>
                    <Cell label={head[4]} class="num">
                      {services.documents?.dropPending(v.name) ? '0' : count(lang, docs.get(v.name) ?? 0)}
                    </Cell>
                  </tr>
                );
              })}
            </Table>
          )}
          <section aria-labelledby="ds-new">
            <h2 id="ds-new">{t(lang, 'admin.ds.create')}</h2>
            <CreateForm lang={lang} />
          </section>
        </>
      ),
    });
  });
  return app;
}
