/**
 * Dashboard, one datasource (`/admin/datasources/{name}`): its display name,
 * sub tree and object/property definitions, its users, groups and
 * memberships (people.tsx, groups.tsx), and its deletion. Read with the control plane's
 * domain functions (`getDatasource`, `listUsers`, `listGroups`), changed
 * through the Indexing API with the administrator's session, so every rule,
 * status code and message is the API's (a cycle is refused with its path).
 * The deletion asks for the datasource's name to be typed and names what
 * goes with it: subs, users, groups, memberships and committed documents.
 */
import { Hono } from 'hono';
import { documentsPerDatasource } from '../../../admin/stats.ts';
import { getDatasource, listGroups, listUsers, type DatasourceView } from '../../../controlplane/index.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { count, seg } from './format.ts';
import { ApiForm, Cell, Field, Submit, Table, TextArea } from './forms.tsx';
import { GroupsSection } from './groups.tsx';
import { UsersSection, type People } from './people.tsx';
import { adminPage } from './shell.tsx';

const base = (v: DatasourceView) => `/api/indexing/datasources/${seg(v.name)}`;

function Names({ lang, v }: { lang: Lang; v: DatasourceView }) {
  return (
    <ApiForm
      lang={lang}
      method="PUT"
      path={base(v)}
      label={t(lang, 'admin.ds.rename')}
      done={t(lang, 'admin.saved')}
      class="inline"
    >
      <Field
        id="ds-display"
        name="display_name"
        label={t(lang, 'admin.ds.displayName')}
        value={v.display_name}
        required
      />
      <Submit label={t(lang, 'admin.save')} />
    </ApiForm>
  );
}

function SubTree({ lang, v }: { lang: Lang; v: DatasourceView }) {
  const remove = (key: string, name: string, parent?: string) => (
    <ApiForm
      lang={lang}
      method="DELETE"
      path={`${base(v)}/subs/${seg(key)}${parent ? `?parent_key=${seg(parent)}` : ''}`}
      label={t(lang, 'admin.sub.deleteLabel', { name })}
      confirm={t(lang, 'admin.sub.confirm', { name })}
      done={t(lang, 'admin.deleted')}
      class="tiny"
    >
      <Submit danger label={t(lang, 'admin.delete')} ariaLabel={t(lang, 'admin.sub.deleteLabel', { name })} />
    </ApiForm>
  );
  return (
    <>
      {v.subs.length === 0 ? (
        <p>{t(lang, 'admin.sub.none')}</p>
      ) : (
        <ul class="tree" aria-label={t(lang, 'admin.sub.tree')}>
          {v.subs.map((s) => (
            <li>
              <div class="node">
                <span>{s.name}</span> <code>{s.key}</code> {remove(s.key, s.name)}
              </div>
              {s.children.length > 0 && (
                <ul>
                  {s.children.map((child) => (
                    <li>
                      <div class="node">
                        <span>{child.name}</span> <code>{child.key}</code> {remove(child.key, child.name, s.key)}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      <ApiForm
        lang={lang}
        method="POST"
        path={`${base(v)}/subs`}
        label={t(lang, 'admin.sub.add')}
        done={t(lang, 'admin.saved')}
        class="inline"
      >
        <Field id="sub-name" name="name" label={t(lang, 'admin.sub.name')} required />
        <Field
          id="sub-key"
          name="key"
          kind="optional"
          label={t(lang, 'admin.sub.key')}
          hint={t(lang, 'admin.sub.keyHint')}
        />
        <div class="field">
          <label for="sub-parent">{t(lang, 'admin.sub.parent')}</label>
          <select id="sub-parent" name="parent_key" data-kind="optional">
            <option value="">{t(lang, 'admin.sub.topLevel')}</option>
            {v.subs.map((s) => (
              <option value={s.key}>{s.name}</option>
            ))}
          </select>
        </div>
        <Submit label={t(lang, 'admin.sub.add')} />
      </ApiForm>
    </>
  );
}

function Definitions({ lang, v }: { lang: Lang; v: DatasourceView }) {
  const head = ['name', 'label', 'type', 'searchable'].map((k) =>
    t(lang, `admin.def.col.${k}` as 'admin.def.col.name'),
  );
  return (
    <>
      {v.object_definitions.length === 0 && <p>{t(lang, 'admin.def.none')}</p>}
      {v.object_definitions.map((def) => (
        <Table caption={t(lang, 'admin.def.caption', { name: def.name })} head={head}>
          {def.property_definitions.map((p) => (
            <tr>
              <Cell label={head[0]}>
                <code>{p.name}</code>
              </Cell>
              <Cell label={head[1]}>{p.display_label}</Cell>
              <Cell label={head[2]}>{p.property_type}</Cell>
              <Cell label={head[3]}>{t(lang, p.is_searchable ? 'admin.yes' : 'admin.no')}</Cell>
            </tr>
          ))}
        </Table>
      ))}
      <details>
        <summary>{t(lang, 'admin.def.edit')}</summary>
        <ApiForm
          lang={lang}
          method="PUT"
          path={base(v)}
          label={t(lang, 'admin.def.edit')}
          done={t(lang, 'admin.saved')}
        >
          <TextArea
            id="defs"
            name="object_definitions"
            kind="json"
            rows={10}
            label={t(lang, 'admin.def.json')}
            hint={t(lang, 'admin.def.jsonHint')}
            value={JSON.stringify(v.object_definitions, null, 2)}
          />
          <Submit label={t(lang, 'admin.save')} />
        </ApiForm>
      </details>
    </>
  );
}

function Deletion({
  lang,
  v,
  people,
  documents,
}: {
  lang: Lang;
  v: DatasourceView;
  people: People;
  documents: number;
}) {
  const subs = v.subs.reduce((n, s) => n + 1 + s.children.length, 0);
  const memberships = people.groups.reduce((n, g) => n + g.member_emails.length + g.member_groups.length, 0);
  const what = t(lang, 'admin.ds.deleteWhat', {
    subs: count(lang, subs),
    users: count(lang, people.users.length),
    groups: count(lang, people.groups.length),
    memberships: count(lang, memberships),
    documents: count(lang, documents),
  });
  return (
    <ApiForm
      lang={lang}
      method="DELETE"
      path={base(v)}
      label={t(lang, 'admin.ds.delete')}
      done={t(lang, 'admin.ds.deleted', { name: v.name })}
      next="/admin/datasources"
      class="danger-zone"
    >
      <p id="ds-delete-what">{what}</p>
      <Field
        id="ds-confirm"
        name="_confirm"
        label={t(lang, 'admin.ds.typeName', { name: v.name })}
        mustEqual={v.name}
        mismatch={t(lang, 'admin.ds.typeMismatch', { name: v.name })}
        hint={t(lang, 'admin.ds.deleteHint')}
      />
      <Submit danger label={t(lang, 'admin.ds.delete')} />
    </ApiForm>
  );
}

export function datasourceRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/datasources/:name', (c) => {
    const lang = c.get('lang');
    const v = getDatasource(services, c.req.param('name'));
    const people: People = { ...listUsers(services, v.name), ...listGroups(services, v.name) };
    const filter = (c.req.query('user') ?? '').trim().toLowerCase().slice(0, 320);
    const documents =
      services.documents && !services.documents.dropPending(v.name)
        ? (documentsPerDatasource(services.documents.index).get(v.name) ?? 0)
        : 0;
    return adminPage(c, assets, {
      section: 'datasources',
      title: v.display_name,
      intro: t(lang, 'admin.ds.pageIntro', { name: v.name, documents: count(lang, documents) }),
      children: (
        <>
          <p>
            <a href="/admin/datasources">{t(lang, 'admin.ds.back')}</a>
          </p>
          <section aria-labelledby="sec-names">
            <h2 id="sec-names">{t(lang, 'admin.ds.names')}</h2>
            <Names lang={lang} v={v} />
          </section>
          <section aria-labelledby="sec-subs">
            <h2 id="sec-subs">{t(lang, 'admin.sub.title')}</h2>
            <SubTree lang={lang} v={v} />
          </section>
          <section aria-labelledby="sec-defs">
            <h2 id="sec-defs">{t(lang, 'admin.def.title')}</h2>
            <Definitions lang={lang} v={v} />
          </section>
          <UsersSection lang={lang} datasource={v.name} people={people} filter={filter} />
          <GroupsSection lang={lang} datasource={v.name} people={people} />
          <section aria-labelledby="sec-delete">
            <h2 id="sec-delete">{t(lang, 'admin.ds.delete')}</h2>
            <Deletion lang={lang} v={v} people={people} documents={documents} />
          </section>
        </>
      ),
    });
  });
  return app;
}
