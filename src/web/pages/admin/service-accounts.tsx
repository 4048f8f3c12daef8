/**
 * Dashboard, the Service Accounts page (`/admin/service-accounts`; spec,
 * Authentication 2): service accounts as `GET /api/admin/service-accounts`
 * lists them (never a secret), a form that creates one through `POST
 * /api/admin/service-accounts` and shows its `svcsa_` key once, with a copy
 * button (the list shown afterwards has no secret), and per key a form for
 * its expiry and one that revokes it. Creating, revoking and changing a
 * service-account key need both the administrator and the developer role: for
 * a viewer without the developer role the forms say so and are disabled, and
 * the API refuses them anyway (403).
 */
import { Hono } from 'hono';
import { listServiceAccounts } from '../../../accounts/service-accounts.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t } from '../../i18n/i18n.ts';
import { KeyRow, keyHead } from './keys.tsx';
import { when } from './format.ts';
import { ApiForm, Field, Submit, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

export function serviceAccountsRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/service-accounts', (c) => {
    const lang = c.get('lang');
    const viewer = c.get('viewer')!;
    const locked = viewer.roles.includes('developer') ? undefined : t(lang, 'admin.sa.needsDeveloper');
    const accounts = listServiceAccounts(services);
    return adminPage(c, assets, {
      section: 'service-accounts',
      title: t(lang, 'admin.nav.serviceAccounts'),
      intro: t(lang, 'admin.sa.intro'),
      children: (
        <>
          <section aria-labelledby="sa-new">
            <h2 id="sa-new">{t(lang, 'admin.sa.create')}</h2>
            <ApiForm
              lang={lang}
              method="POST"
              path="/api/admin/service-accounts"
              label={t(lang, 'admin.sa.create')}
              secret="key"
              done={t(lang, 'admin.sa.created')}
              disabledReason={locked}
              class="inline"
            >
              <Field id="sa-name" name="name" label={t(lang, 'admin.sa.name')} required />
              <Field
                id="sa-exp"
                name="expires_at"
                type="datetime-local"
                kind="datetime"
                label={t(lang, 'admin.key.expires')}
                hint={t(lang, 'admin.key.expiresHint')}
              />
              <Submit label={t(lang, 'admin.sa.create')} />
            </ApiForm>
          </section>
          <section aria-labelledby="sa-list">
            <h2 id="sa-list">{t(lang, 'admin.sa.list')}</h2>
            {accounts.length === 0 && <p>{t(lang, 'admin.sa.none')}</p>}
            {accounts.map((sa) => (
              <article class="card sa" aria-labelledby={`sa-${sa.id}`}>
                <h3 id={`sa-${sa.id}`}>{sa.name}</h3>
                <p class="hint">
                  {t(lang, 'admin.sa.createdBy', { who: sa.created_by, at: when(lang, sa.created_at) })}
                </p>
                <Table caption={t(lang, 'admin.sa.keyOf', { name: sa.name })} head={keyHead(lang)} captionHidden>
                  <KeyRow
                    lang={lang}
                    k={{
                      id: sa.key_id,
                      kind: 'service',
                      created_at: sa.created_at,
                      expires_at: sa.expires_at,
                      revoked_at: sa.revoked_at,
                    }}
                    name={sa.name}
                    locked={locked}
                  />
                </Table>
              </article>
            ))}
          </section>
        </>
      ),
    });
  });
  return app;
}
