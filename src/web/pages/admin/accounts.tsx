/**
 * Dashboard, accounts (`/admin/accounts`): the accounts with their roles and
 * keys (as `GET /api/admin/accounts` lists them, never a secret), filtered by
 * the `q` query and at most ACCOUNTS_SHOWN rows, and a form that creates one
 * through `POST /api/admin/accounts` (then its page opens: account.tsx). An
 * administrator without a role cannot give it: the API refuses (403), the
 * form says so beforehand.
 */
import { Hono } from 'hono';
import { listAccounts } from '../../../accounts/accounts.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { seg, when } from './format.ts';
import { ApiForm, Cell, Checkboxes, Field, Submit, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

export const ACCOUNTS_SHOWN = 500;

/** The roles as checkboxes; a role the viewer lacks is disabled (the API refuses giving it: no escalation). */
export const roleOptions = (lang: Lang, held: readonly string[]) =>
  (['administrator', 'developer'] as const).map((value) => ({
    value,
    label: t(lang, `admin.role.${value}`),
    disabled: !held.includes(value),
  }));

/** Why some role checkboxes are disabled, or undefined. */
export function rolesNote(lang: Lang, held: readonly string[]): string | undefined {
  const lacking = (['administrator', 'developer'] as const).filter((r) => !held.includes(r));
  return lacking.length > 0 ? t(lang, 'admin.role.cannotGive', { roles: rolesText(lang, lacking) }) : undefined;
}

export const rolesText = (lang: Lang, roles: readonly string[]) =>
  roles.map((r) => t(lang, r === 'administrator' ? 'admin.role.administrator' : 'admin.role.developer')).join(', ') ||
  t(lang, 'admin.role.none');

function CreateForm({ lang, held }: { lang: Lang; held: readonly string[] }) {
  return (
    <ApiForm
      lang={lang}
      method="POST"
      path="/api/admin/accounts"
      label={t(lang, 'admin.account.create')}
      done={t(lang, 'admin.account.created')}
      next="/admin/accounts/{email}"
      class="inline"
    >
      <Field id="acc-email" name="email" type="email" label={t(lang, 'admin.account.email')} required />
      <Field id="acc-name" name="name" kind="nullable" label={t(lang, 'admin.account.name')} />
      <Checkboxes
        idPrefix="acc-role"
        legend={t(lang, 'admin.account.roles')}
        name="roles"
        options={roleOptions(lang, held)}
        checked={[]}
        note={rolesNote(lang, held)}
      />
      <Submit label={t(lang, 'admin.account.create')} />
    </ApiForm>
  );
}

export function accountsRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/accounts', (c) => {
    const lang = c.get('lang');
    const q = (c.req.query('q') ?? '').trim().toLowerCase().slice(0, 320);
    const all = listAccounts(services);
    const matching = q ? all.filter((a) => a.email.includes(q) || (a.name ?? '').toLowerCase().includes(q)) : all;
    const shown = matching.slice(0, ACCOUNTS_SHOWN);
    const head = ['email', 'name', 'roles', 'keys', 'created'].map((k) =>
      t(lang, `admin.account.col.${k}` as 'admin.account.col.email'),
    );
    return adminPage(c, assets, {
      section: 'accounts',
      title: t(lang, 'admin.nav.accounts'),
      intro: t(lang, 'admin.account.intro'),
      children: (
        <>
          <form method="get" class="inline" role="search" aria-label={t(lang, 'admin.account.filter')}>
            <div class="field">
              <label for="acc-filter">{t(lang, 'admin.account.filter')}</label>
              <input id="acc-filter" name="q" type="search" value={q} />
            </div>
            <button type="submit">{t(lang, 'admin.filter')}</button>
          </form>
          {matching.length > shown.length && (
            <p class="hint">{t(lang, 'admin.shownOf', { shown: shown.length, total: matching.length })}</p>
          )}
          <Table caption={t(lang, 'admin.nav.accounts')} head={head} captionHidden>
            {shown.map((a) => (
              <tr>
                <Cell label={head[0]}>
                  <a href={`/admin/accounts/${seg(a.email)}`}>{a.email}</a>
                </Cell>
                <Cell label={head[1]}>{a.name ?? '–'}</Cell>
                <Cell label={head[2]}>{rolesText(lang, a.roles)}</Cell>
                <Cell label={head[3]} class="num">
                  {a.keys.filter((k) => k.revoked_at === null).length}
                </Cell>
                <Cell label={head[4]}>{when(lang, a.created_at)}</Cell>
              </tr>
            ))}
          </Table>
          <section aria-labelledby="acc-new">
            <h2 id="acc-new">{t(lang, 'admin.account.create')}</h2>
            <CreateForm lang={lang} held={c.get('viewer')!.roles} />
          </section>
        </>
      ),
    });
  });
  return app;
}
