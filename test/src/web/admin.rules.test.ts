/**
 * The dashboard's rules over HTTP, against the real server: not signed in, every dashboard page
 * asks for the sign-in first; signed in without the administrator role, every page is the 403
 * page and every action the pages offer is refused (403); every action needs the CSRF token and a
 * same-site request; an administrator without the developer role cannot create, revoke or change
 * a service account's key through the dashboard either. The actions are the ones the pages
 * render (`data-method` / `data-path` of every dashboard form), so a new form is covered too.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { doc } from '../../support/documents.ts';
import { HttpBrowser } from '../../support/web.ts';
import { SECTIONS } from '../../../src/web/pages/admin/shell.tsx';
import { adminServer, Dashboard, type AdminServer } from './admin-kit.ts';

let a: AdminServer;
let root: Dashboard;
let actions: { method: string; path: string }[];

const PAGES = [
  '/admin',
  '/admin/datasources',
  '/admin/datasources/wiki',
  '/admin/documents?datasource=wiki&id=doc-1&email=ada%40example.com',
  '/admin/accounts',
  '/admin/accounts/ada%40example.com',
  '/admin/service-accounts',
  '/admin/agents',
  '/admin/connectors',
  '/admin/settings',
  '/admin/audit',
];

/** The API calls the dashboard's forms make, as rendered for an administrator. */
function formsOf(html: string): { method: string; path: string }[] {
  const out = [];
  for (const m of html.matchAll(/<form[^>]*class="api-form[^"]*"[^>]*>/g)) {
    const method = /data-method="([A-Z]+)"/.exec(m[0])?.[1];
    const path = /data-path="([^"]+)"/.exec(m[0])?.[1]?.replaceAll('&amp;', '&');
    if (method && path) out.push({ method, path });
  }
  return out;
}

before(async () => {
  a = await adminServer({ env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODELS: 'm1' }, connectors: true });
  const { s } = a;
  await s.api('POST', '/datasources', {
    name: 'wiki',
    display_name: 'Wiki',
    subs: [{ name: 'HR' }, { name: 'Policies', parent_key: 'hr' }],
  });
  await s.person('ada@example.com', { datasources: ['wiki'] });
  await s.api('POST', '/groups', { datasource: 'wiki', group: { name: 'staff' } });
  await s.api('POST', '/groups', { datasource: 'wiki', group: { name: 'all' } });
  await s.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'staff', member_email: 'ada@example.com' },
  });
  await s.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'all', member_group_name: 'staff' },
  });
  await s.api('POST', '/documents', { documents: doc({ permissions: { allowed_groups: ['all'] } }) });
  await s.commit();
  await s.call('POST', '/api/admin/agents', MASTER, { name: 'Helper' });
  await s.call('POST', '/api/admin/service-accounts', MASTER, { name: 'importer' });
  for (const paused of [false, true]) {
    const created = await s.call('POST', '/api/admin/connectors', MASTER, {
      name: `Drive ${paused}`,
      type: 'fileshares',
      datasource: paused ? 'drive_paused' : 'drive',
      interval_minutes: null,
      settings: { root: join(tmpdir(), 'admin-rules-no-such-folder') },
      paused,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  }
  root = await Dashboard.signIn(s.base, a.root);
  const seen = new Map<string, { method: string; path: string }>();
  for (const page of PAGES) {
    const res = await root.page(page);
    assert.equal(res.status, 200, page);
    for (const f of formsOf(res.text)) seen.set(`${f.method} ${f.path}`, f);
  }
  actions = [...seen.values()];
});
after(() => a.close());

test('the pages offer every kind of change the dashboard makes', () => {
  const kinds = new Set(
    actions.map(
      (f) =>
        `${f.method} ${f.path.replace(/\/(?:[^/]*%40[^/]*|key_[0-9a-f]+|agent_[0-9a-f]+|conn_[0-9a-f]+)/g, '/:x')}`,
    ),
  );
  for (const expected of [
    'POST /api/indexing/datasources',
    'PUT /api/indexing/datasources/wiki',
    'DELETE /api/indexing/datasources/wiki',
    'POST /api/indexing/datasources/wiki/subs',
    'POST /api/indexing/users',
    'PUT /api/indexing/users/wiki/:x',
    'POST /api/indexing/groups',
    'PUT /api/indexing/groups/wiki/staff',
    'POST /api/indexing/memberships',
    'DELETE /api/indexing/memberships/wiki/staff/user/:x',
    'DELETE /api/indexing/memberships/wiki/all/group/staff',
    'POST /api/admin/accounts',
    'PUT /api/admin/accounts/:x/roles',
    'PUT /api/admin/accounts/:x/password',
    'POST /api/admin/accounts/:x/sign-in-links',
    'DELETE /api/admin/accounts/:x/sessions',
    'POST /api/admin/accounts/:x/keys',
    'PUT /api/admin/keys/:x/expiry',
    'DELETE /api/admin/keys/:x',
    'DELETE /api/admin/accounts/:x',
    'POST /api/admin/service-accounts',
    'POST /api/admin/agents',
    'PATCH /api/admin/agents/:x',
    'DELETE /api/admin/agents/:x',
    'POST /api/admin/settings/check',
    'POST /api/admin/connectors',
    'POST /api/admin/connectors/:x/run',
    'POST /api/admin/connectors/:x/pause',
    'POST /api/admin/connectors/:x/resume',
    'DELETE /api/admin/connectors/:x',
  ])
    assert.ok(kinds.has(expected), `${expected} in ${[...kinds].join(', ')}`);
});

test('every section of the navigation is a page an administrator can open', async () => {
  const hrefs = SECTIONS.map((s) => s.href);
  assert.ok(hrefs.includes('/admin/analytics'), 'the analytics page is in the navigation');
  for (const href of hrefs) {
    const res = await root.page(href);
    assert.equal(res.status, 200, href);
    assert.match(res.text, new RegExp(`<a href="${href}" aria-current="page">`), href);
  }
});

test('not signed in: every dashboard page asks for the sign-in and keeps the address', async () => {
  const b = new HttpBrowser(a.s.base);
  for (const page of [...PAGES, '/admin/analytics']) {
    const res = await b.request(page);
    assert.equal(res.status, 303, page);
    assert.equal(res.headers.get('location'), `/signin?next=${encodeURIComponent(page)}`);
  }
});

test('signed in without the administrator role: 403 on every page, and every action refused', async () => {
  await a.s.person('dev@example.com', { roles: ['developer'] });
  const dev = await Dashboard.signIn(a.s.base, {
    email: 'dev@example.com',
    password: 'correct horse battery staple',
    key: '',
  });
  for (const page of PAGES) {
    const res = await dev.page(page);
    assert.equal(res.status, 403, page);
    assert.match(res.headers.get('content-type')!, /text\/html/);
    assert.match(
      res.text,
      /The administration is for accounts with the administrator role|Die Verwaltung ist Konten mit der Rolle Administrator vorbehalten/,
    );
  }
  assert.equal((await dev.page('/admin/analytics')).status, 403);
  const home = await dev.page('/');
  assert.doesNotMatch(home.text, /href="\/admin"/, 'no link to the dashboard');
  for (const { method, path } of actions) {
    const res = await dev.call(method, path, {});
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
  }
});

test('every action needs the CSRF token and a same-site request; refused ones change nothing', async () => {
  const before = (await a.s.call('GET', '/api/admin/audit', MASTER)).body.records.length;
  for (const { method, path } of actions) {
    const missing = await root.call(method, path, {}, { csrf: false });
    assert.equal(missing.status, 403, `${method} ${path} without the token`);
    assert.match(missing.body.detail, /CSRF/);
    const crossSite = await root.call(method, path, {}, { headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(crossSite.status, 403, `${method} ${path} cross-site`);
    const foreign = await root.call(method, path, {}, { headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403, `${method} ${path} from another origin`);
  }
  assert.equal((await a.s.call('GET', '/api/admin/audit', MASTER)).body.records.length, before);
  assert.equal((await a.s.api('GET', '/datasources/wiki')).status, 200);
  const noCookie = await new HttpBrowser(a.s.base).request('/api/indexing/datasources', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(noCookie.status, 401);
});

test('an administrator without the developer role cannot manage service accounts through the dashboard either', async () => {
  await a.s.person('admin@example.com', { roles: ['administrator'] });
  const admin = await Dashboard.signIn(a.s.base, {
    email: 'admin@example.com',
    password: 'correct horse battery staple',
    key: '',
  });
  const created = await admin.call('POST', '/api/admin/service-accounts', { name: 'sneaky' });
  assert.equal(created.status, 403);
  assert.match(created.body.detail, /administrator and developer roles/);
  const sa = (await a.s.call('GET', '/api/admin/service-accounts', MASTER)).body.service_accounts[0];
  assert.equal((await admin.call('DELETE', `/api/admin/keys/${sa.key_id}`)).status, 403);
  assert.equal((await admin.call('PUT', `/api/admin/keys/${sa.key_id}/expiry`, { expires_at: null })).status, 403);
  const page = await admin.page('/admin/service-accounts');
  assert.equal(page.status, 200);
  assert.match(page.text, /Managing service accounts needs the developer role|Dienstkonten verwalten braucht/);
  assert.match(page.text, /<fieldset class="plain" disabled="">/);
  const names = (await a.s.call('GET', '/api/admin/service-accounts', MASTER)).body.service_accounts.map(
    (x: { name: string }) => x.name,
  );
  assert.ok(names.includes('importer') && !names.includes('sneaky'));
  assert.equal(
    (await admin.call('POST', '/api/admin/accounts', { email: 'dev2@example.com', roles: ['developer'] })).status,
    403,
  );
  assert.equal((await root.call('POST', '/api/admin/service-accounts', { name: 'allowed' })).status, 200);
});

test('no privilege escalation through the dashboard: an administrator cannot give or touch a role it lacks', async () => {
  await a.s.person('lead@example.com', { roles: ['administrator'] });
  await a.s.person('builder@example.com', { roles: ['developer'] });
  const lead = await Dashboard.signIn(a.s.base, {
    email: 'lead@example.com',
    password: 'correct horse battery staple',
    key: '',
  });
  const self = await lead.call('PUT', '/api/admin/accounts/lead%40example.com/roles', {
    roles: ['administrator', 'developer'],
  });
  assert.equal(self.status, 403, self.text);
  const dev = '/api/admin/accounts/builder%40example.com';
  for (const [method, path, body] of [
    ['PUT', `${dev}/roles`, { roles: [] }],
    ['PUT', `${dev}/password`, { password: 'another long passphrase' }],
    ['POST', `${dev}/sign-in-links`, {}],
    ['POST', `${dev}/keys`, {}],
    ['DELETE', dev, undefined],
  ] as const) {
    const res = await lead.call(method, path, body);
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
  }
  const accounts = (await a.s.call('GET', '/api/admin/accounts', MASTER)).body.accounts;
  const roles = (email: string) => accounts.find((x: { email: string }) => x.email === email).roles;
  assert.deepEqual(roles('lead@example.com'), ['administrator']);
  assert.deepEqual(roles('builder@example.com'), ['developer']);
  // The page says why and disables the forms the API would refuse.
  const page = await lead.page('/admin/accounts/builder%40example.com');
  assert.equal(page.status, 200);
  assert.match(page.text, /selbst die Rolle Entwickler/);
  const forms = [...page.text.matchAll(/<form class="api-form[^]*?<\/form>/g)].map((m) => m[0]);
  assert.ok(forms.length >= 6);
  for (const f of forms) assert.match(f, /<fieldset class="plain" disabled="">/, f.slice(0, 200));
  // Creating an account: the developer role cannot be ticked, and the form says why.
  const list = await lead.page('/admin/accounts');
  assert.match(list.text, /<input type="checkbox" id="acc-role-developer"[^>]* disabled=""/);
  assert.match(list.text, /<input type="checkbox" id="acc-role-administrator"(?![^>]* disabled)[^>]*\/>/);
  assert.match(list.text, /nur Rollen vergeben, die Sie selbst haben; nicht: Entwickler/);
});

test('every dashboard page has the strict CSP, no inline script, handler or style, and no caching', async () => {
  for (const page of [...PAGES, '/admin/analytics']) {
    const res = await root.page(page);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/, page);
    assert.match(csp, /require-trusted-types-for 'script'/, page);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, page);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', page);
    assert.equal(res.headers.get('cache-control'), 'no-store', page);
    for (const tag of res.text.match(/<script[^>]*>/g) ?? [])
      assert.match(tag, /src="\/assets\/|type="application\/json"/, page);
    assert.doesNotMatch(res.text, / on[a-z]+="/i, `${page}: no inline event handlers`);
    assert.doesNotMatch(res.text, / style="/i, `${page}: no inline styles`);
  }
});
