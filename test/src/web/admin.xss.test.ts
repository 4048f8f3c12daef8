/**
 * Markup in names renders as text on every dashboard page: datasource display names, sub names,
 * property labels and object definition names, group names, user names, agent names and
 * descriptions, account and service-account names; the raw markup never reaches a page.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { doc } from '../../support/documents.ts';
import { adminServer, Dashboard, type AdminServer } from './admin-kit.ts';

const LABEL = '<img src=x onerror=alert(1)>';
const GROUP = '<svg/onload=alert(2)>';
const AGENT = '<script>alert(3)</script>';
const escaped = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

let a: AdminServer;
let root: Dashboard;

before(async () => {
  a = await adminServer({ connectors: true });
  const { s } = a;
  const created = await s.api('POST', '/datasources', {
    name: 'wiki',
    display_name: `Wiki ${LABEL}`,
    subs: [
      { name: `HR ${LABEL}`, key: 'hr' },
      { name: `Child ${LABEL}`, key: 'child', parent_key: 'hr' },
    ],
    object_definitions: [
      {
        name: `page ${LABEL}`,
        property_definitions: [{ name: 'owner', display_label: `Owner ${LABEL}`, property_type: 'TEXT' }],
      },
    ],
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await s.api('POST', '/users', { datasource: 'wiki', user: { email: 'ada@example.com', name: `Ada ${LABEL}` } });
  for (const name of [GROUP, 'plain'])
    assert.equal((await s.api('POST', '/groups', { datasource: 'wiki', group: { name } })).status, 200);
  await s.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'plain', member_group_name: GROUP },
  });
  await s.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: GROUP, member_email: 'ada@example.com' },
  });
  await s.api('POST', '/documents', { documents: doc({ permissions: { allowed_groups: [GROUP] } }) });
  await s.commit();
  await s.call('POST', '/api/admin/agents', MASTER, { name: AGENT, description: `About ${LABEL}` });
  await s.call('POST', '/api/admin/accounts', MASTER, { email: 'bea@example.com', name: `Bea ${LABEL}` });
  await s.call('POST', '/api/admin/service-accounts', MASTER, { name: `sa ${LABEL}` });
  const connector = await s.call('POST', '/api/admin/connectors', MASTER, {
    name: `Drive ${LABEL}`,
    type: 'fileshares',
    datasource: 'wiki',
    interval_minutes: null,
    settings: { root: join(tmpdir(), 'admin-xss-no-such-folder') },
    paused: true,
  });
  assert.equal(connector.status, 201, JSON.stringify(connector.body));
  root = await Dashboard.signIn(s.base, a.root);
});
after(() => a.close());

const PAGES: [string, string[]][] = [
  ['/admin', [`Wiki ${LABEL}`]],
  ['/admin/datasources', [`Wiki ${LABEL}`]],
  [
    '/admin/datasources/wiki',
    [`Wiki ${LABEL}`, `HR ${LABEL}`, `Child ${LABEL}`, `Owner ${LABEL}`, `page ${LABEL}`, `Ada ${LABEL}`, GROUP],
  ],
  ['/admin/documents?datasource=wiki&id=doc-1&email=ada%40example.com', [GROUP]],
  ['/admin/accounts', [`Bea ${LABEL}`]],
  ['/admin/accounts/bea%40example.com', [`Bea ${LABEL}`]],
  ['/admin/service-accounts', [`sa ${LABEL}`]],
  ['/admin/agents', [AGENT, `About ${LABEL}`]],
  ['/admin/connectors', [`Drive ${LABEL}`]],
  ['/admin/audit?actor=master', [`sa ${LABEL}`]],
];

test('every payload shows as text where it belongs and nowhere as markup', async () => {
  for (const [path, shown] of PAGES) {
    const res = await root.page(path);
    assert.equal(res.status, 200, path);
    for (const raw of [LABEL, GROUP, AGENT, '<img src=x', '<svg/onload', '<script>alert'])
      assert.ok(!res.text.includes(raw), `${path} holds the raw ${raw}`);
    for (const text of shown) assert.ok(res.text.includes(escaped(text)), `${path} shows ${text} as text`);
  }
});
