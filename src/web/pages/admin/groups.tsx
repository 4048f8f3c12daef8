/**
 * The groups and memberships of a datasource on its dashboard page: a tree of
 * nested groups with their people (a group reached a second time is named,
 * not expanded again, and the tree stops after TREE_NODES entries), forms to
 * add groups and memberships, and a table to rename and delete groups (the
 * first GROUPS_SHOWN). Every change goes to the Indexing API (`/groups`,
 * `/memberships`), which answers with its rules and messages (a cycle is
 * refused with its path).
 */
import type { Child } from 'hono/jsx';
import { t } from '../../i18n/i18n.ts';
import { count, seg } from './format.ts';
import { ApiForm, Cell, Field, Hidden, Submit, Table } from './forms.tsx';
import { Remove, type Props } from './people.tsx';

export const TREE_NODES = 1000;
export const GROUPS_SHOWN = 500;

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
