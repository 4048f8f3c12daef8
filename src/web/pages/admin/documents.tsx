/**
 * Dashboard, documents (`/admin/documents?datasource&id&email`): a
 * document's status (as `GET /api/indexing/documents/{datasource}/{id}`
 * answers it) and, with an email, whether that person can see it and why (as
 * `POST /api/indexing/documents/check-access?explain=true` answers it: the
 * reason, the permission that grants access, and the group path from the
 * person through nested groups to the allowed group). Both read with the
 * API's domain functions; a refusal (unknown datasource, document not in the
 * index yet) shows the API's message with its status code.
 */
import { Hono } from 'hono';
import { checkAccess, documentStatus, type AccessAnswer, type DocumentStatusView } from '../../../documents/lookup.ts';
import { listDatasources } from '../../../controlplane/index.ts';
import { ServiceError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { t, type Lang, type MessageKey } from '../../i18n/i18n.ts';
import { when } from './format.ts';
import { adminPage } from './shell.tsx';

interface Lookup {
  datasource: string;
  id: string;
  email: string;
}

function LookupForm({ lang, q, names }: { lang: Lang; q: Lookup; names: string[] }) {
  return (
    <form method="get" action="/admin/documents" class="inline" aria-label={t(lang, 'admin.doc.lookup')}>
      <div class="field">
        <label for="doc-ds">{t(lang, 'admin.doc.datasource')}</label>
        <select id="doc-ds" name="datasource" required>
          {names.map((n) => (
            <option value={n} selected={n === q.datasource}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="doc-id">{t(lang, 'admin.doc.id')}</label>
        <input id="doc-id" name="id" value={q.id} required autocomplete="off" />
      </div>
      <div class="field">
        <label for="doc-email">{t(lang, 'admin.doc.email')}</label>
        <input
          id="doc-email"
          name="email"
          type="email"
          value={q.email}
          aria-describedby="doc-email-hint"
          autocomplete="off"
        />
        <p class="hint" id="doc-email-hint">
          {t(lang, 'admin.doc.emailHint')}
        </p>
      </div>
      <button type="submit" class="primary">
        {t(lang, 'admin.doc.lookup')}
      </button>
    </form>
  );
}

function Status({ lang, s }: { lang: Lang; s: DocumentStatusView }) {
  const rows: [MessageKey, string][] = [
    ['admin.doc.state', t(lang, `admin.state.${s.state}` as MessageKey)],
    ['admin.doc.outcome', s.outcome],
    ['admin.doc.message', s.message],
    ['admin.doc.lastModified', when(lang, s.last_modified)],
    ['admin.doc.received', when(lang, s.received_at)],
    ['admin.doc.committed', when(lang, s.committed_at)],
  ];
  return (
    <section aria-labelledby="doc-status">
      <h2 id="doc-status">{t(lang, 'admin.doc.status', { id: s.document_id })}</h2>
      <dl class="pairs">
        {rows.map(([k, v]) => (
          <div>
            <dt>{t(lang, k)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Access({ lang, a }: { lang: Lang; a: AccessAnswer }) {
  const e = a.explanation;
  const grant: MessageKey = !e.registered
    ? 'admin.access.notRegistered'
    : e.granted_by === 'anonymous'
      ? 'admin.access.byAnonymous'
      : e.granted_by === 'user'
        ? 'admin.access.byUser'
        : e.granted_by === 'group'
          ? 'admin.access.byGroup'
          : 'admin.access.noMatch';
  const groups = e.document.allowed_groups;
  return (
    <section aria-labelledby="doc-access" class={`access ${a.has_access ? 'granted' : 'denied'}`}>
      <h2 id="doc-access">{t(lang, a.has_access ? 'admin.access.yes' : 'admin.access.no', { email: a.user_email })}</h2>
      <p>{t(lang, grant)}</p>
      {e.group_path && (
        <ol class="path" aria-label={t(lang, 'admin.access.path')}>
          {e.group_path.map((step) => (
            <li>{step}</li>
          ))}
        </ol>
      )}
      <dl class="pairs">
        <div>
          <dt>{t(lang, 'admin.access.docAllows')}</dt>
          <dd>
            {[
              e.document.anonymous ? t(lang, 'admin.access.everyone') : null,
              e.document.allowed_users > 0 ? t(lang, 'admin.access.users', { n: e.document.allowed_users }) : null,
              groups.length > 0 ? t(lang, 'admin.access.groups', { groups: groups.join(', ') }) : null,
            ]
              .filter(Boolean)
              .join('; ') || t(lang, 'admin.access.nobody')}
          </dd>
        </div>
        <div>
          <dt>{t(lang, 'admin.access.userGroups')}</dt>
          <dd>{e.user_groups.join(', ') || '–'}</dd>
        </div>
        <div>
          <dt>{t(lang, 'admin.access.reason')}</dt>
          <dd lang="en">{a.reason}</dd>
        </div>
      </dl>
    </section>
  );
}

export function documentsRoutes(services: Services, assets: WebAssets): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get('/admin/documents', (c) => {
    const lang = c.get('lang');
    const q: Lookup = {
      datasource: (c.req.query('datasource') ?? '').slice(0, 64),
      id: (c.req.query('id') ?? '').slice(0, 1000),
      email: (c.req.query('email') ?? '').trim().slice(0, 320),
    };
    const names = listDatasources(services).map((d) => d.name);
    let status: DocumentStatusView | undefined;
    let access: AccessAnswer | undefined;
    let refusal: ServiceError | undefined;
    /** The API's refusal (4xx) is shown; anything else is the page's error. */
    const attempt = <T,>(f: () => T): T | undefined => {
      try {
        return f();
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        refusal = err;
        return undefined;
      }
    };
    const documents = services.documents;
    if (documents && q.datasource && q.id) {
      const deps = { state: services.state, documents };
      status = attempt(() => documentStatus(deps, q.datasource, q.id));
      if (status && q.email)
        access = attempt(() => checkAccess(deps, { datasource: q.datasource, document_id: q.id, user_email: q.email }));
    }
    return adminPage(
      c,
      assets,
      {
        section: 'documents',
        title: t(lang, 'admin.nav.documents'),
        intro: t(lang, 'admin.doc.intro'),
        children: (
          <>
            {names.length === 0 ? (
              <p>{t(lang, 'admin.overview.noDatasources')}</p>
            ) : (
              <LookupForm lang={lang} q={q} names={names} />
            )}
            {status && <Status lang={lang} s={status} />}
            {refusal && (
              <p class="error" role="alert">
                {refusal.status}: {refusal.message}
              </p>
            )}
            {access && <Access lang={lang} a={access} />}
          </>
        ),
      },
      (refusal as ServiceError | undefined)?.status ?? 200,
    );
  });
  return app;
}
