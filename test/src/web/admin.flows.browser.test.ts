/**
 * Dashboard flows in Chromium: the Service Accounts page shows a new key once and never again;
 * accounts (create with roles, password, a sign-in link shown once, a personal key shown once,
 * its expiry, revoking it, deleting the account); agents (create, edit, delete); the settings'
 * "test now" against a fake LLM upstream on 127.0.0.1; a datasource's subs and definitions
 * (invalid JSON and the API's 422 shown in the form) and its deletion, which needs the name typed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { launchBrowser } from '../../support/browser.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-llm.ts';
import { adminServer, openSignedIn, submitAndWait, type AdminServer } from './admin-kit.ts';

let a: AdminServer;
let llm: FakeUpstream;
let browser: Browser;

before(async () => {
  llm = await startFakeUpstream();
  a = await adminServer({ env: { LLM_BASE_URL: llm.url, LLM_MODELS: 'fake-model' } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await a?.close();
  await llm?.close();
});

const form = (page: Page, name: string) => page.getByRole('form', { name, exact: true });

test('the Service Accounts page shows a new key once, and never again', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/service-accounts');
  await page.fill('#sa-name', 'nightly-import');
  await page.fill('#sa-exp', '2099-12-31T23:00');
  await form(page, 'Create a service account').getByRole('button', { name: 'Create a service account' }).click();
  await page.locator('[data-secret-value]').waitFor();
  const key = (await page.textContent('[data-secret-value]'))!;
  assert.match(key, /^svcsa_/);
  assert.match((await page.textContent('[data-secret-panel]'))!, /Shown only now/);
  assert.ok(await page.locator('#sa-name').isHidden(), 'the form gives way to the secret');
  // The key works on the Indexing API.
  const res = await fetch(`${a.s.base}/api/indexing/file-types`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  await submitAndWait(page, page.getByRole('button', { name: 'Done' }));
  assert.equal(await page.textContent('#admin-flash'), 'The service account was created.');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'admin-flash');
  for (const path of ['/admin/service-accounts', '/admin', '/admin/audit']) {
    await page.goto(a.s.base + path);
    assert.ok(!(await page.content()).includes(key), `${path} never shows the key`);
  }
  const listed = JSON.stringify((await a.s.call('GET', '/api/admin/service-accounts', MASTER)).body);
  assert.ok(listed.includes('nightly-import') && !listed.includes(key));
  assert.match(listed, /"expires_at":"2099-12-31T23:00:00.000Z"/);
  await context.close();
});

test('accounts: create with roles, password, a sign-in link and a key shown once, expiry, revoke, delete', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/accounts');
  await page.fill('#acc-email', 'bea@example.com');
  await page.fill('#acc-name', 'Bea');
  await page.check('#acc-role-developer');
  await Promise.all([
    page.waitForURL('**/admin/accounts/bea%40example.com'),
    form(page, 'Create an account').getByRole('button').click(),
  ]);
  assert.equal(await page.textContent('h1'), 'bea@example.com');
  assert.equal(await page.isChecked('#role-developer'), true);

  await page.check('#role-administrator');
  await submitAndWait(page, form(page, 'Roles').getByRole('button', { name: 'Save' }));
  assert.equal(await page.isChecked('#role-administrator'), true);

  await page.fill('#acc-pw', 'short');
  await form(page, 'Set the password').getByRole('button').click();
  await form(page, 'Set the password').getByRole('alert').waitFor();
  assert.match(
    (await form(page, 'Set the password').getByRole('alert').textContent())!,
    /^422: body\.password: .*10 characters/,
  );
  await page.fill('#acc-pw', 'a long enough passphrase');
  await submitAndWait(page, form(page, 'Set the password').getByRole('button'));
  assert.equal(await page.textContent('#admin-flash'), 'The password was set.');

  await form(page, 'Create a sign-in link').getByRole('button', { name: 'Create a sign-in link' }).click();
  const link = form(page, 'Create a sign-in link').locator('[data-secret-value]');
  await link.waitFor();
  assert.match((await link.textContent())!, new RegExp(`^${a.s.base}/signin/link/sil_`));
  await submitAndWait(page, form(page, 'Create a sign-in link').getByRole('button', { name: 'Done' }));

  await page.fill('#key-exp', '2099-06-01T12:00');
  await form(page, 'Issue a key').getByRole('button', { name: 'Issue a key' }).click();
  const secret = form(page, 'Issue a key').locator('[data-secret-value]');
  await secret.waitFor();
  const key = (await secret.textContent())!;
  assert.match(key, /^pk_/);
  await submitAndWait(page, form(page, 'Issue a key').getByRole('button', { name: 'Done' }));
  assert.ok(!(await page.content()).includes(key));
  const keyId = (await page.locator('table.data code').first().textContent())!;
  assert.equal(await page.inputValue(`#exp-${keyId}`), '2099-06-01T12:00');

  await page.fill(`#exp-${keyId}`, '2098-01-01T00:00');
  await submitAndWait(
    page,
    page.getByRole('form', { name: `Expiry of the key ${keyId} (UTC; empty: never)` }).getByRole('button'),
  );
  const account = () =>
    a.s
      .call('GET', '/api/admin/accounts', MASTER)
      .then((r) => r.body.accounts.find((x: any) => x.email === 'bea@example.com'));
  assert.equal((await account()).keys[0].expires_at, '2098-01-01T00:00:00.000Z');

  await submitAndWait(page, page.getByRole('button', { name: `Revoke the key ${keyId} of bea@example.com` }));
  assert.notEqual((await account()).keys[0].revoked_at, null);
  assert.equal(
    (await fetch(`${a.s.base}/api/beta/search?query=x`, { headers: { authorization: `Bearer ${key}` } })).status,
    401,
  );

  await Promise.all([
    page.waitForURL('**/admin/accounts'),
    form(page, 'Delete the account').getByRole('button').click(),
  ]);
  assert.equal(await page.textContent('#admin-flash'), 'The account bea@example.com was deleted.');
  assert.equal(await account(), undefined);
  await context.close();
});

test('agents: create, edit and delete', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/agents');
  await page.fill('#new-name', 'Travel helper');
  await page.fill('#new-desc', 'Answers travel questions');
  await page.selectOption('#new-model', 'fake-model');
  await page.check('#new-tool-webSearch');
  await page.fill('#new-ds', 'handbook, wiki');
  await page.fill('#new-instr', 'Cite the travel policy.');
  await submitAndWait(page, form(page, 'Create an agent').getByRole('button'));
  const agents = async () => (await a.s.call('GET', '/api/admin/agents', MASTER)).body.agents;
  const [agent] = await agents();
  assert.deepEqual(
    [agent.name, agent.description, agent.model, agent.tools, agent.datasources, agent.instructions],
    [
      'Travel helper',
      'Answers travel questions',
      'fake-model',
      ['serviceSearch', 'webSearch'],
      ['handbook', 'wiki'],
      'Cite the travel policy.',
    ],
  );
  await page.getByText('Edit Travel helper').click();
  await page.fill('#a0-name', 'Trip helper');
  await page.selectOption('#a0-model', '');
  await page.fill('#a0-ds', '');
  await submitAndWait(page, form(page, 'Edit Travel helper').getByRole('button'));
  const [edited] = await agents();
  assert.deepEqual([edited.name, edited.model, edited.datasources], ['Trip helper', null, null]);
  await submitAndWait(page, page.getByRole('button', { name: 'Delete the agent Trip helper' }));
  assert.deepEqual(await agents(), []);
  await context.close();
});

test('settings: "test now" calls the LLM upstream and shows its answer', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/settings');
  llm.models = ['fake-model'];
  await page.getByRole('button', { name: 'Test now: LLM upstream' }).click();
  const result = form(page, 'Test now: LLM upstream').locator('[data-result-text]');
  await result.filter({ hasText: 'OK' }).waitFor();
  assert.match((await result.textContent())!, /^OK: The LLM upstream answered/);
  llm.models = ['other'];
  await page.getByRole('button', { name: 'Test now: LLM upstream' }).click();
  await result.filter({ hasText: 'Failed' }).waitFor();
  assert.match((await result.textContent())!, /does not list fake-model/);
  assert.match((await page.textContent('main'))!, /LLM_API_KEY\s*not set/);
  await context.close();
});

test('a datasource: subs, definitions with the API refusing bad ones, and deletion after typing its name', async () => {
  await a.s.api('POST', '/datasources', { name: 'crm', display_name: 'CRM' });
  await a.s.api('POST', '/users', { datasource: 'crm', user: { email: 'ada@example.com' } });
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/datasources/crm');
  await page.fill('#sub-name', 'Sales');
  await submitAndWait(page, form(page, 'Add a sub').getByRole('button'));
  await page.fill('#sub-name', 'Leads');
  await page.selectOption('#sub-parent', 'sales');
  await submitAndWait(page, form(page, 'Add a sub').getByRole('button'));
  const subs = page.getByRole('list', { name: 'Sub tree' });
  assert.match((await subs.innerText()).replace(/\s+/g, ' '), /Sales sales Delete Leads leads Delete/);

  await page.getByText('Edit the definitions').click();
  await page.fill('#defs', '[{"name": "deal"');
  await form(page, 'Edit the definitions').getByRole('button').click();
  assert.equal(
    await form(page, 'Edit the definitions').getByRole('alert').textContent(),
    'Object definitions (JSON): not valid JSON',
  );
  await page.fill(
    '#defs',
    '[{"name": "deal", "property_definitions": [{"name": "value", "display_label": "Value", "property_type": "MONEY"}]}]',
  );
  await form(page, 'Edit the definitions').getByRole('button').click();
  await form(page, 'Edit the definitions').getByRole('alert').filter({ hasText: '422' }).waitFor();
  assert.match(
    (await form(page, 'Edit the definitions').getByRole('alert').textContent())!,
    /^422: body\.object_definitions\.0\.property_definitions\.0\.property_type: /,
  );
  await page.fill(
    '#defs',
    '[{"name": "deal", "property_definitions": [{"name": "value", "display_label": "Value", "property_type": "INTEGER"}]}]',
  );
  await submitAndWait(page, form(page, 'Edit the definitions').getByRole('button'));
  assert.match((await page.textContent('#sec-defs + *'))!, /Properties of deal/);

  assert.match(
    (await form(page, 'Delete the datasource').textContent())!,
    /subs 2, users 1, groups 0, memberships 0, documents in the search index 0/,
  );
  await page.fill('#ds-confirm', 'crn');
  await form(page, 'Delete the datasource').getByRole('button').click();
  assert.equal(
    await form(page, 'Delete the datasource').getByRole('alert').textContent(),
    'Type the name crm exactly to delete the datasource.',
  );
  assert.equal((await a.s.api('GET', '/datasources/crm')).status, 200, 'nothing was sent');
  await page.fill('#ds-confirm', 'crm');
  await Promise.all([
    page.waitForURL('**/admin/datasources'),
    form(page, 'Delete the datasource').getByRole('button').click(),
  ]);
  assert.equal(await page.textContent('#admin-flash'), 'The datasource crm was deleted.');
  assert.equal((await a.s.api('GET', '/datasources/crm')).status, 404);
  await context.close();
});
