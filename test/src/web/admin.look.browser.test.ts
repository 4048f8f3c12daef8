/**
 * How the dashboard looks and reads in Chromium: axe-core finds no serious or critical violation
 * on any dashboard page (every `details` open, a secret panel shown), light and dark, at desktop
 * and phone width; at 375 px nothing scrolls sideways, long names included; German is the default;
 * a change can be made by keyboard alone; markup in names shows as text and runs nothing. Also
 * takes the README's screenshot (docs/screenshots/admin.png with UPDATE_SCREENSHOTS=1, else into
 * a temporary folder).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { axeViolations, launchBrowser } from '../../support/browser.ts';
import { doc } from '../../support/documents.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-llm.ts';
import { adminServer, openSignedIn, type AdminServer } from './admin-kit.ts';

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
const LONG = 'Reisekostenabrechnungsformularausfüllanleitung'.repeat(2);
const XSS = '<img src=x onerror=alert(1)>';

let a: AdminServer;
let llm: FakeUpstream;
let browser: Browser;

const PAGES = [
  '/admin',
  '/admin/datasources',
  '/admin/datasources/handbook',
  '/admin/documents?datasource=handbook&id=travel-policy&email=ada%40example.com',
  '/admin/documents?datasource=handbook&id=missing',
  '/admin/accounts',
  '/admin/accounts/ada%40example.com',
  '/admin/service-accounts',
  '/admin/agents',
  '/admin/connectors',
  '/admin/settings',
  '/admin/audit',
  '/admin/analytics',
];

before(async () => {
  llm = await startFakeUpstream();
  a = await adminServer({ env: { LLM_BASE_URL: llm.url, LLM_MODELS: 'fake-model' }, connectors: true });
  const { s } = a;
  await s.api('POST', '/datasources', {
    name: 'handbook',
    display_name: `Employee handbook ${LONG}`,
    subs: [
      { name: 'Travel', key: 'travel' },
      { name: `Expenses ${XSS}`, key: 'expenses', parent_key: 'travel' },
    ],
    object_definitions: [
      {
        name: 'policy',
        property_definitions: [{ name: 'owner', display_label: `Owner ${XSS}`, property_type: 'TEXT' }],
      },
    ],
  });
  await s.person('ada@example.com', { name: 'Ada Lovelace', roles: ['developer'], datasources: ['handbook'] });
  await s.api('POST', '/users', { datasource: 'handbook', user: { email: `${'x'.repeat(60)}@example.com` } });
  for (const name of ['travel-team', 'everyone', `long-${LONG}`, '<svg/onload=alert(2)>'])
    await s.api('POST', '/groups', { datasource: 'handbook', group: { name } });
  await s.api('POST', '/memberships', {
    datasource: 'handbook',
    membership: { group_name: 'travel-team', member_email: 'ada@example.com' },
  });
  await s.api('POST', '/memberships', {
    datasource: 'handbook',
    membership: { group_name: 'everyone', member_group_name: 'travel-team' },
  });
  await s.api('POST', '/memberships', {
    datasource: 'handbook',
    membership: { group_name: 'everyone', member_group_name: '<svg/onload=alert(2)>' },
  });
  await s.api('POST', '/documents', {
    documents: [
      doc({ datasource: 'handbook', id: 'travel-policy', permissions: { allowed_groups: ['everyone'] } }),
      doc({ datasource: 'handbook', id: 'notes', title: `notes.${LONG}` }),
    ],
  });
  await s.commit();
  await s.call('POST', '/api/admin/agents', MASTER, { name: `Travel helper ${XSS}`, description: LONG });
  await s.call('POST', '/api/admin/service-accounts', MASTER, { name: 'handbook-importer' });
  await s.call('POST', '/api/admin/connectors', MASTER, {
    name: `Shared drive ${XSS}`,
    type: 'fileshares',
    datasource: 'shared',
    settings: { root: join(tmpdir(), 'admin-look-no-such-folder') },
    paused: true,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await a?.close();
  await llm?.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 375]) {
    test(`axe-core: no serious or critical violation on any dashboard page, ${colorScheme} (${colorScheme === 'light' ? 'English' : 'German'}), ${width} px`, async () => {
      const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin', {
        colorScheme,
        width,
        height: 800,
        bypassCSP: true,
        locale: colorScheme === 'light' ? 'en-GB' : 'de-DE',
      });
      for (const path of PAGES) {
        await page.goto(a.s.base + path);
        await page.locator('details').evaluateAll((ds) => ds.forEach((d) => d.setAttribute('open', '')));
        assert.deepEqual(await axeViolations(page), [], path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.equal(overflow, 0, `${path}: ${overflow} px too wide`);
      }
      await page.goto(`${a.s.base}/admin/accounts/ada%40example.com`);
      await page.locator('form[data-secret=key] button[type=submit]').click();
      await page.locator('form[data-secret=key] [data-secret-value]').waitFor();
      assert.deepEqual(await axeViolations(page), [], 'the secret panel');
      await context.close();
    });
  }
}

test('German by default: navigation, headings and messages', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin', { locale: 'de-DE' });
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  assert.equal(await page.textContent('h1'), 'Übersicht');
  assert.deepEqual(await page.locator('.admin-nav a').allTextContents(), [
    'Übersicht',
    'Datenquellen',
    'Dokumente',
    'Konten',
    'Dienstkonten',
    'Agenten',
    'Konnektoren',
    'Einstellungen',
    'Audit-Protokoll',
    'Auswertungen',
  ]);
  await page.goto(`${a.s.base}/admin/documents?datasource=handbook&id=travel-policy&email=ada%40example.com`);
  assert.equal(await page.textContent('#doc-access'), 'ada@example.com kann dieses Dokument sehen');
  await context.close();
});

test('keyboard alone: reach a form from the section navigation, fill it and send it with Enter', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/datasources/handbook');
  await page.locator('.admin-nav a[aria-current=page]').focus();
  let guard = 0;
  while ((await page.evaluate(() => document.activeElement?.id)) !== 'group-new' && guard++ < 200)
    await page.keyboard.press('Tab');
  assert.equal(
    await page.evaluate(() => document.activeElement?.id),
    'group-new',
    'the group field is reachable by Tab',
  );
  await page.keyboard.type('managers');
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  assert.equal(
    await page.evaluate(() => document.activeElement?.id),
    'admin-flash',
    'the focus moves to what happened',
  );
  assert.equal(await page.textContent('#admin-flash'), 'Saved.');
  assert.equal(
    (await a.s.api('GET', '/groups/handbook')).body.groups.some((g: { name: string }) => g.name === 'managers'),
    true,
  );
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.equal(outline, 'solid', 'visible focus');
  await context.close();
});

test('markup in names shows as text and runs nothing', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/datasources/handbook');
  const dialogs: string[] = [];
  page.on('dialog', (d) => dialogs.push(d.message()));
  assert.match(
    (await page.getByRole('list', { name: 'Sub tree' }).textContent())!,
    /Expenses <img src=x onerror=alert\(1\)>/,
  );
  assert.match(
    (await page.getByRole('list', { name: /Groups with their nested groups/ }).textContent())!,
    /<svg\/onload=alert\(2\)>/,
  );
  assert.equal(await page.locator('main img, main svg').count(), 0);
  await page.goto(`${a.s.base}/admin/agents`);
  assert.match((await page.textContent('main h2'))!, /Travel helper <img/);
  assert.deepEqual(dialogs, []);
  await context.close();
});

test('screenshot of the check-access answer', async () => {
  const dir = process.env.UPDATE_SCREENSHOTS === '1' ? SCREENSHOTS : await mkdtemp(join(tmpdir(), 'admin-shot-'));
  await mkdir(dir, { recursive: true });
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin', { width: 1100, height: 900 });
  await page.goto(`${a.s.base}/admin/documents?datasource=handbook&id=travel-policy&email=ada%40example.com`);
  await page.getByRole('list', { name: 'Group path' }).waitFor();
  const file = join(dir, 'admin.png');
  await page.screenshot({ path: file });
  assert.ok((await stat(file)).size > 10_000);
  if (process.env.UPDATE_SCREENSHOTS !== '1') await rm(dir, { recursive: true, force: true });
  await context.close();
});
