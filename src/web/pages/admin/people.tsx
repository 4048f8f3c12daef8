/**
 * The users, groups and memberships of a datasource on its dashboard page:
 * users (filtered by the `user` query, at most USERS_SHOWN rows) with rename
 * and delete; groups as a tree of nested groups (a group reached a second
 * time is named, not expanded again, and the tree stops after TREE_NODES
 * nodes), with their people, and forms to add, rename and delete groups (the
 * first GROUPS_SHOWN in the table) and
 * to add and remove memberships. Every change goes to the Indexing API
 * (`/api/indexing/users`, `/groups`, `/memberships`), which answers with its
 * rules and messages.
 */
import type { Child } from 'hono/jsx';
import type { UserRecord } from '../../../controlplane/index.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { count, seg } from './format.ts';
import { ApiForm, Cell, Field, Hidden, Submit, Table } from './forms.tsx';

export const USERS_SHOWN = 200;
export const TREE_NODES = 1000;
export const GROUPS_SHOWN = 500;

interface GroupRow {
  name: string;
  member_emails: string[];
  member_groups: string[];
}

export interface People {
  users: UserRecord[];
  groups: GroupRow[];
}

interface Props {
  lang: Lang;
  datasource: string;
  people: People;
}

function Remove(p: { lang: Lang; path: string; label: string; confirm: string; text?: string }) {
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

/** The group tree: roots are groups no other group contains. */
function Tree({ lang, datasource, people }: Props) {
  const byName = new Map(people.groups.map((g) => [g.name, g]));
  const nested = new Set(people.groups.flatMap((g) => g.member_groups));
  const expanded = new Set<string>();
  let nodes = 0;
  const membership = (parent: string, type: 'user' | 'group', id: string) =>
    `/api/indexing/memberships/${seg(datasource)}/${seg(parent)}/${type}/${seg(id)}`;
  const node = (name: string, parent: string | null): Child => {
    nodes++;
    const g = byName.get(name)!;
    const again = expanded.has(name);
    expanded.add(name);
    const label = t(lang, 'admin.group.removeFrom', { member: name, group: parent ?? '' });
    return (
      <li>
        <div class="node">
          <span class="group-name">{name}</span>
          {again && <span class="hint"> {t(lang, 'admin.group.seeAbove')}</span>}
          {parent !== null && (
            <Remove lang={lang} path={membership(parent, 'group', name)} label={label} confirm={label} />
          )}
        </div>
        {!again && (g.member_groups.length > 0 || g.member_emails.length > 0) && (
          <ul>
            {g.member_groups.map((child) => (nodes < TREE_NODES ? node(child, name) : null))}
            {g.member_emails.map((email) => {
              if (nodes++ >= TREE_NODES) return null;
              const l = t(lang, 'admin.group.removeFrom', { member: email, group: name });
              return (
                <li>
                  <div class="node person">
                    <span>{email}</span>
                    <Remove lang={lang} path={membership(name, 'user', email)} label={l} confirm={l} />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </li>
    );
  };
  const roots = people.groups.filter((g) => !nested.has(g.name));
  const tree = roots.map((g) => (nodes < TREE_NODES ? node(g.name, null) : null));
  return (
    <>
      <ul class="tree" aria-label={t(lang, 'admin.group.tree')}>
        {tree}
      </ul>
      {nodes >= TREE_NODES && <p class="hint">{t(lang, 'admin.group.treeCut', { n: TREE_NODES })}</p>}
    </>
  );
}

function GroupForms({ lang, datasource, people }: Props) {
  return (
    <>
      <datalist id="group-names">
        {people.groups.slice(0, 500).map((g) => (
          <option value={g.name} />
        ))}
      </datalist>
      <ApiForm
        lang={lang}
        method="POST"
        path="/api/indexing/groups"
        label={t(lang, 'admin.group.add')}
        done={t(lang, 'admin.saved')}
        class="inline"
      >
        <Hidden name="datasource" value={datasource} />
        <Field
          id="group-new"
          name="group.name"
          label={t(lang, 'admin.group.name')}
          required
          hint={t(lang, 'admin.group.nameHint')}
        />
        <Submit label={t(lang, 'admin.group.add')} />
      </ApiForm>
      <ApiForm
        lang={lang}
        method="POST"
        path="/api/indexing/memberships"
        label={t(lang, 'admin.member.addUser')}
        done={t(lang, 'admin.saved')}
        class="inline"
      >
        <Hidden name="datasource" value={datasource} />
        <div class="field">
          <label for="mu-group">{t(lang, 'admin.member.group')}</label>
          <input id="mu-group" name="membership.group_name" list="group-names" required autocomplete="off" />
        </div>
        <Field
          id="mu-email"
          name="membership.member_email"
          type="email"
          label={t(lang, 'admin.member.email')}
          required
        />
        <Submit label={t(lang, 'admin.member.addUser')} />
      </ApiForm>
      <ApiForm
        lang={lang}
        method="POST"
        path="/api/indexing/memberships"
        label={t(lang, 'admin.member.addGroup')}
        done={t(lang, 'admin.saved')}
        class="inline"
      >
        <Hidden name="datasource" value={datasource} />
        <div class="field">
          <label for="mg-group">{t(lang, 'admin.member.parent')}</label>
          <input id="mg-group" name="membership.group_name" list="group-names" required autocomplete="off" />
        </div>
        <div class="field">
          <label for="mg-member">{t(lang, 'admin.member.child')}</label>
          <input id="mg-member" name="membership.member_group_name" list="group-names" required autocomplete="off" />
        </div>
        <Submit label={t(lang, 'admin.member.addGroup')} />
      </ApiForm>
    </>
  );
}

function GroupTable({ lang, datasource, people }: Props) {
  const head = ['name', 'members', 'actions'].map((k) => t(lang, `admin.group.col.${k}` as 'admin.group.col.name'));
  return (
    <Table caption={t(lang, 'admin.group.manage')} head={head}>
      {people.groups.slice(0, GROUPS_SHOWN).map((g, i) => {
        const path = `/api/indexing/groups/${seg(datasource)}/${seg(g.name)}`;
        return (
          <tr>
            <Cell label={head[0]}>
              <ApiForm
                lang={lang}
                method="PUT"
                path={path}
                label={t(lang, 'admin.group.rename', { name: g.name })}
                done={t(lang, 'admin.saved')}
                class="tiny"
              >
                <label class="visually-hidden" for={`group-name-${i}`}>
                  {t(lang, 'admin.group.newName', { name: g.name })}
                </label>
                <input id={`group-name-${i}`} name="group_name" value={g.name} required />
                <button type="submit">{t(lang, 'admin.rename')}</button>
              </ApiForm>
            </Cell>
            <Cell label={head[1]} class="num">
              {count(lang, g.member_emails.length + g.member_groups.length)}
            </Cell>
            <Cell label={head[2]}>
              <Remove
                lang={lang}
                path={path}
                label={t(lang, 'admin.group.delete', { name: g.name })}
                confirm={t(lang, 'admin.group.confirm', { name: g.name })}
                text={t(lang, 'admin.delete')}
              />
            </Cell>
          </tr>
        );
      })}
    </Table>
  );
}

export function GroupsSection(props: Props) {
  const { lang, people } = props;
  return (
    <section aria-labelledby="sec-groups">
      <h2 id="sec-groups">{t(lang, 'admin.group.title', { n: count(lang, people.groups.length) })}</h2>
      {people.groups.length === 0 ? <p>{t(lang, 'admin.group.none')}</p> : <Tree {...props} />}
      <GroupForms {...props} />
      {people.groups.length > 0 && <GroupTable {...props} />}
    </section>
  );
}
