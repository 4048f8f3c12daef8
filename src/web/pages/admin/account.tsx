/**
 * Dashboard, one account (`/admin/accounts/{email}`): roles (`PUT …/roles`),
 * password (`PUT …/password`) or a one-time sign-in link (`POST
 * …/sign-in-links`, its address shown once), browser sessions (`DELETE
 * …/sessions` signs out everywhere), personal keys (`POST …/keys`, the key
 * shown once with a copy button; `PUT /api/admin/keys/{id}/expiry`; `DELETE
 * /api/admin/keys/{id}` revokes) and deletion. No privilege escalation, as in
 * the API: when the account holds a role the viewer lacks, the forms say why
 * they are disabled, and the API refuses them anyway (403).
 */
import { Hono } from 'hono';
import { findAccount, listAccounts, type AccountView } from '../../../accounts/accounts.ts';
import { notFound } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { listSessions } from '../../../sessions/sessions.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { rolesNote, rolesText, roleOptions } from './accounts.tsx';
import { count, seg, when } from './format.ts';
import { KeyRow, keyHead } from './keys.tsx';
import { ApiForm, Checkboxes, Field, Submit, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

interface Props {
  lang: Lang;
  a: AccountView;
  /** Why the viewer may not manage this account (a role the account holds and the viewer lacks). */
  locked?: string;
}

const api = (a: AccountView) => `/api/admin/accounts/${seg(a.email)}`;

function Keys({ lang, a, locked }: Props) {
  return (
    <section aria-labelledby="acc-keys">
      <h2 id="acc-keys">{t(lang, 'admin.key.title')}</h2>
      <p class="hint">{t(lang, 'admin.key.intro')}</p>
      {a.keys.length === 0 ? (
        <p>{t(lang, 'admin.key.none')}</p>
      ) : (
        <Table caption={t(lang, 'admin.key.title')} head={keyHead(lang)} captionHidden>
          {a.keys.map((k) => (
            <KeyRow lang={lang} k={k} name={a.email} locked={locked} />
          ))}
        </Table>
      )}
      <ApiForm
        lang={lang}
        method="POST"
        path={`${api(a)}/keys`}
        label={t(lang, 'admin.key.issue')}
        secret="key"
        done={t(lang, 'admin.key.issued')}
        disabledReason={locked}
        class="inline"
      >
        <Field
          id="key-exp"
          name="expires_at"
          type="datetime-local"
          kind="datetime"
          label={t(lang, 'admin.key.expires')}
          hint={t(lang, 'admin.key.expiresHint')}
        />
        <Submit label={t(lang, 'admin.key.issue')} />
      </ApiForm>
    </section>
  );
}

function SignIn({ lang, a, locked, passwords, sessions }: Props & { passwords: boolean; sessions: number }) {
  return (
    <section aria-labelledby="acc-signin">
      <h2 id="acc-signin">{t(lang, 'admin.account.signIn')}</h2>
      {passwords ? (
        <>
          <ApiForm
            lang={lang}
            method="PUT"
            path={`${api(a)}/password`}
            label={t(lang, 'admin.account.setPassword')}
            done={t(lang, 'admin.account.passwordSet')}
            disabledReason={locked}
            class="inline"
          >
            <input type="email" name="_username" autocomplete="username" value={a.email} hidden readonly />
            <Field
              id="acc-pw"
              name="password"
              type="password"
              autocomplete="new-password"
              label={t(lang, 'admin.account.password')}
              hint={t(lang, 'admin.account.passwordHint')}
              required
            />
            <Submit label={t(lang, 'admin.account.setPassword')} />
          </ApiForm>
          <ApiForm
            lang={lang}
            method="POST"
            path={`${api(a)}/sign-in-links`}
            label={t(lang, 'admin.account.link')}
            secret="url"
            done={t(lang, 'admin.account.linkIssued')}
            disabledReason={locked}
            class="inline"
          >
            <p class="hint">{t(lang, 'admin.account.linkHint')}</p>
            <Submit label={t(lang, 'admin.account.link')} />
          </ApiForm>
        </>
      ) : (
        <p>{t(lang, 'admin.account.passwordsOff')}</p>
      )}
      <ApiForm
        lang={lang}
        method="DELETE"
        path={`${api(a)}/sessions`}
        label={t(lang, 'admin.account.endSessions')}
        confirm={t(lang, 'admin.account.endConfirm', { email: a.email })}
        done={t(lang, 'admin.account.ended')}
        disabledReason={locked}
        class="inline"
      >
        <p>{t(lang, 'admin.account.sessions', { n: count(lang, sessions) })}</p>
        <Submit danger label={t(lang, 'admin.account.endSessions')} />
      </ApiForm>
    </section>
  );
}

export function accountRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  const sessionDeps = { state: services.state, now: services.now, sessions: services.config.web.session };
  app.get('/admin/accounts/:email', (c) => {
    const lang = c.get('lang');
    const record = findAccount(services, c.req.param('email'));
    if (!record) throw notFound(t(lang, 'admin.account.notFound'));
    const a = listAccounts(services).find((x) => x.id === record.id)!;
    const viewer = c.get('viewer')!;
    const missing = a.roles.filter((r) => !viewer.roles.includes(r));
    const locked =
      missing.length > 0 ? t(lang, 'admin.account.locked', { roles: rolesText(lang, missing) }) : undefined;
    const sessions = listSessions(sessionDeps, a.id).length;
    return adminPage(c, assets, {
      section: 'accounts',
      title: a.email,
      intro: t(lang, 'admin.account.pageIntro', { name: a.name ?? '–', created: when(lang, a.created_at) }),
      children: (
        <>
          <p>
            <a href="/admin/accounts">{t(lang, 'admin.account.back')}</a>
          </p>
          <section aria-labelledby="acc-roles">
            <h2 id="acc-roles">{t(lang, 'admin.account.roles')}</h2>
            <ApiForm
              lang={lang}
              method="PUT"
              path={`${api(a)}/roles`}
              label={t(lang, 'admin.account.roles')}
              done={t(lang, 'admin.saved')}
              disabledReason={locked}
              class="inline"
            >
              <Checkboxes
                idPrefix="role"
                legend={t(lang, 'admin.account.rolesOf', { email: a.email })}
                name="roles"
                options={roleOptions(lang, viewer.roles)}
                checked={a.roles}
                note={locked ? undefined : rolesNote(lang, viewer.roles)}
              />
              <Submit label={t(lang, 'admin.save')} />
            </ApiForm>
          </section>
          <SignIn
            lang={lang}
            a={a}
            locked={locked}
            passwords={services.config.web.passwordSignIn}
            sessions={sessions}
          />
          <Keys lang={lang} a={a} locked={locked} />
          <section aria-labelledby="acc-delete">
            <h2 id="acc-delete">{t(lang, 'admin.account.delete')}</h2>
            <ApiForm
              lang={lang}
              method="DELETE"
              path={api(a)}
              label={t(lang, 'admin.account.delete')}
              confirm={t(lang, 'admin.account.deleteConfirm', { email: a.email })}
              done={t(lang, 'admin.account.deleted', { email: a.email })}
              next="/admin/accounts"
              disabledReason={locked}
              class="danger-zone"
            >
              <p>{t(lang, 'admin.account.deleteWhat')}</p>
              <Submit danger label={t(lang, 'admin.account.delete')} />
            </ApiForm>
          </section>
        </>
      ),
    });
  });
  return app;
}
