/**
 * The people of a datasource on its dashboard page: the shared types, the
 * remove button, and the users (filtered by the `user` query, at most
 * USERS_SHOWN rows) with rename and delete, and a form to add one. Groups and
 * memberships are groups.tsx. Every change goes to the Indexing API
 * (`/api/indexing/users`), which answers with its rules and messages.
 */
import type { UserRecord } from '../../../controlplane/index.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { count, seg } from './format.ts';
import { ApiForm, Cell, Field, Hidden, Submit, Table } from './forms.tsx';

export const USERS_SHOWN = 200;

export interface GroupRow {
  name: string;
  member_emails: string[];
  member_groups: string[];
}

export interface People {
  users: UserRecord[];
  groups: GroupRow[];
}

export interface Props {
  lang: Lang;
  datasource: string;
  people: People;
}

/** A form with one button that deletes what `path` names, after a confirmation. */
export function Remove(p: { lang: Lang; path: string; label: string; confirm: string; text?: string }) {
  return (
    <ApiForm
      lang={p.lang}
      method="DELETE"
      path={p.path}
      label={p.label}
      confirm={p.confirm}
      done={t(p.lang, 'admin.deleted')}
      class="tiny"
    >
      <Submit danger label={p.text ?? t(p.lang, 'admin.remove')} ariaLabel={p.label} />
    </ApiForm>
  );
}

export function UsersSection({ lang, datasource, people, filter }: Props & { filter: string }) {
  const matching = filter
    ? people.users.filter((u) => u.email.includes(filter) || (u.name ?? '').toLowerCase().includes(filter))
    : people.users;
  const shown = matching.slice(0, USERS_SHOWN);
  const direct = new Map<string, string[]>();
  for (const g of people.groups) for (const e of g.member_emails) direct.set(e, [...(direct.get(e) ?? []), g.name]);
  const head = ['email', 'name', 'groups', 'actions'].map((k) =>
    t(lang, `admin.user.col.${k}` as 'admin.user.col.email'),
  );
  return (
    <section aria-labelledby="sec-users">
      <h2 id="sec-users">{t(lang, 'admin.user.title', { n: count(lang, people.users.length) })}</h2>
      <form method="get" class="inline" role="search" aria-label={t(lang, 'admin.user.filter')}>
        <div class="field">
          <label for="user-filter">{t(lang, 'admin.user.filter')}</label>
          <input id="user-filter" name="user" type="search" value={filter} />
        </div>
        <button type="submit">{t(lang, 'admin.filter')}</button>
      </form>
      {matching.length > shown.length && (
        <p class="hint">{t(lang, 'admin.shownOf', { shown: shown.length, total: matching.length })}</p>
      )}
      {shown.length > 0 && (
        <Table caption={t(lang, 'admin.user.caption')} head={head} captionHidden>
          {shown.map((u, i) => {
            const path = `/api/indexing/users/${seg(datasource)}/${seg(u.email)}`;
            return (
              <tr>
                <Cell label={head[0]}>{u.email}</Cell>
                <Cell label={head[1]}>
                  <ApiForm
                    lang={lang}
                    method="PUT"
                    path={path}
                    label={t(lang, 'admin.user.rename', { email: u.email })}
                    done={t(lang, 'admin.saved')}
                    class="tiny"
                  >
                    <label class="visually-hidden" for={`user-name-${i}`}>
                      {t(lang, 'admin.user.nameOf', { email: u.email })}
                    </label>
                    <input id={`user-name-${i}`} name="name" value={u.name ?? ''} data-kind="nullable" />
                    <button type="submit">{t(lang, 'admin.save')}</button>
                  </ApiForm>
                </Cell>
                <Cell label={head[2]}>{(direct.get(u.email) ?? []).join(', ') || '–'}</Cell>
                <Cell label={head[3]}>
                  <Remove
                    lang={lang}
                    path={path}
                    label={t(lang, 'admin.user.delete', { email: u.email })}
                    confirm={t(lang, 'admin.user.confirm', { email: u.email })}
                  />
                </Cell>
              </tr>
            );
          })}
        </Table>
      )}
      <ApiForm
        lang={lang}
        method="POST"
        path="/api/indexing/users"
        label={t(lang, 'admin.user.add')}
        done={t(lang, 'admin.saved')}
        class="inline"
      >
        <Hidden name="datasource" value={datasource} />
        <Field id="user-email" name="user.email" type="email" label={t(lang, 'admin.user.email')} required />
        <Field id="user-name" name="user.name" kind="nullable" label={t(lang, 'admin.user.name')} />
        <Submit label={t(lang, 'admin.user.add')} />
      </ApiForm>
    </section>
  );
}
