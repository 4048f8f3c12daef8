/**
 * Dashboard, settings (`/admin/settings`): the effective configuration as
 * `GET /api/admin/settings` answers it (every variable with the value in
 * effect; secrets only "set" or "not set"), and the chat upstream and the
 * web-search providers, each with a "test now" button that calls `POST
 * /api/admin/settings/check` and shows its answer. The configuration comes
 * from the environment at start; the page does not change it.
 */
import { Hono } from 'hono';
import { effectiveSettings, upstreams, type SettingView } from '../../../admin/settings.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { ApiForm, Cell, Hidden, Submit, Table } from './forms.tsx';
import { adminPage } from './shell.tsx';

function shown(lang: Lang, s: SettingView): string {
  if (s.secret) return t(lang, s.set ? 'admin.settings.set' : 'admin.settings.notSet');
  if (s.value === null) return t(lang, 'admin.settings.unset');
  return String(s.value);
}

export function settingsRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/settings', (c) => {
    const lang = c.get('lang');
    const settings = effectiveSettings(services.config);
    const head = ['name', 'value', 'description'].map((k) =>
      t(lang, `admin.settings.col.${k}` as 'admin.settings.col.name'),
    );
    return adminPage(c, assets, {
      section: 'settings',
      title: t(lang, 'admin.nav.settings'),
      intro: t(lang, 'admin.settings.intro'),
      children: (
        <>
          <section aria-labelledby="set-up">
            <h2 id="set-up">{t(lang, 'admin.settings.upstreams')}</h2>
            <ul class="upstreams">
              {upstreams(services.config).map((u) => (
                <li class="card">
                  <h3>{u.name}</h3>
                  <p>
                    {u.configured
                      ? t(lang, 'admin.settings.configured', { endpoint: u.endpoint ?? '' })
                      : t(lang, 'admin.settings.notConfigured')}
                  </p>
                  {u.serves.length > 0 && (
                    <p class="hint">{t(lang, 'admin.settings.serves', { list: u.serves.join(', ') })}</p>
                  )}
                  {u.configured && (
                    <ApiForm
                      lang={lang}
                      method="POST"
                      path="/api/admin/settings/check"
                      label={t(lang, 'admin.settings.testOf', { name: u.name })}
                      result
                    >
                      <Hidden name="target" value={u.id} />
                      <Submit
                        label={t(lang, 'admin.settings.test')}
                        ariaLabel={t(lang, 'admin.settings.testOf', { name: u.name })}
                      />
                    </ApiForm>
                  )}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="set-all">
            <h2 id="set-all">{t(lang, 'admin.settings.effective')}</h2>
            <Table caption={t(lang, 'admin.settings.effective')} head={head} captionHidden>
              {settings.map((s) => (
                <tr>
                  <Cell label={head[0]}>
                    <code>{s.name}</code>
                  </Cell>
                  <Cell label={head[1]} class={s.set ? undefined : 'hint'}>
                    {shown(lang, s)}
                  </Cell>
                  <Cell label={head[2]}>
                    <span lang="en">{s.description}</span>
                  </Cell>
                </tr>
              ))}
            </Table>
          </section>
        </>
      ),
    });
  });
  return app;
}
