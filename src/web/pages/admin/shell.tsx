/**
 * The frame of every dashboard page (`/admin…`): the page shell (layout.tsx)
 * with the section navigation, the page heading, a status line the browser
 * module fills after a change, and the messages the browser module needs.
 * `requireAdministrator` guards every dashboard page: not signed in, the page
 * middleware sends the visitor to sign in; signed in without the
 * administrator role, the answer is the 403 page.
 *
 * Sections are listed in SECTIONS, each a module under this folder (the
 * analytics page, issue 25 point 4, and the connectors page, issue 26, too).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Child } from 'hono/jsx';
import { forbidden } from '../../../errors.ts';
import type { WebAssets } from '../../assets/store.ts';
import type { WebEnv } from '../../env.ts';
import { clientMessages, t, type MessageKey } from '../../i18n/i18n.ts';
import { Page } from '../../layout.tsx';
import { safeNext } from '../../viewer.ts';

export type Section =
  | 'overview'
  | 'datasources'
  | 'documents'
  | 'accounts'
  | 'service-accounts'
  | 'agents'
  | 'connectors'
  | 'settings'
  | 'audit'
  | 'analytics';

export const SECTIONS: readonly { id: Section; href: string; label: MessageKey }[] = [
  { id: 'overview', href: '/admin', label: 'admin.nav.overview' },
  { id: 'datasources', href: '/admin/datasources', label: 'admin.nav.datasources' },
  { id: 'documents', href: '/admin/documents', label: 'admin.nav.documents' },
  { id: 'accounts', href: '/admin/accounts', label: 'admin.nav.accounts' },
  { id: 'service-accounts', href: '/admin/service-accounts', label: 'admin.nav.serviceAccounts' },
  { id: 'agents', href: '/admin/agents', label: 'admin.nav.agents' },
  { id: 'connectors', href: '/admin/connectors', label: 'admin.nav.connectors' },
  { id: 'settings', href: '/admin/settings', label: 'admin.nav.settings' },
  { id: 'audit', href: '/admin/audit', label: 'admin.nav.audit' },
  { id: 'analytics', href: '/admin/analytics', label: 'admin.nav.analytics' },
];

/** Messages of the browser module (client/admin.ts). */
const CLIENT_KEYS = [
  'admin.js.copy',
  'admin.js.copied',
  'admin.js.copyFailed',
  'admin.js.offline',
  'admin.js.badJson',
  'admin.js.mismatch',
  'admin.js.working',
  'admin.js.ok',
  'admin.js.failed',
] as const satisfies readonly MessageKey[];

export const isAdministrator = (c: Context<WebEnv>) => !!c.get('viewer')?.roles.includes('administrator');

/** Every dashboard page: administrators only (the sign-in redirect comes first, from the page middleware). */
export const requireAdministrator: MiddlewareHandler<WebEnv> = async (c, next) => {
  if (!isAdministrator(c)) throw forbidden(t(c.get('lang'), 'admin.forbidden'));
  await next();
};

export interface AdminPageProps {
  section: Section;
  title: string;
  /** A line under the heading. */
  intro?: string;
  children?: Child;
}

/** Render a dashboard page for the request's viewer. */
export function adminPage(
  c: Context<WebEnv>,
  assets: WebAssets,
  props: AdminPageProps,
  status = 200,
): Response | Promise<Response> {
  const lang = c.get('lang');
  const here = new URL(c.req.url);
  return c.html(
    <Page
      lang={lang}
      title={`${props.title} – ${t(lang, 'admin.title')}`}
      assets={assets}
      formToken={c.get('formToken')}
      viewer={c.get('viewer')}
      current="admin"
      scripts={['admin']}
      data={{ t: clientMessages(lang, CLIENT_KEYS) }}
      here={safeNext(here.pathname + here.search)}
    >
      <div class="admin">
        <nav class="admin-nav" aria-label={t(lang, 'admin.nav.label')}>
          <ul>
            {SECTIONS.map((s) => (
              <li>
                <a href={s.href} aria-current={s.id === props.section ? 'page' : undefined}>
                  {t(lang, s.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="admin-body">
          <h1>{props.title}</h1>
          {props.intro && <p class="hint">{props.intro}</p>}
          <noscript>
            <p class="error">{t(lang, 'admin.noscript')}</p>
          </noscript>
          <p id="admin-flash" class="status" role="status" tabindex={-1}></p>
          {props.children}
        </div>
      </div>
    </Page>,
    status as 200,
  );
}
