/**
 * The dashboard's "Done when" of issue 25, in Chromium and without curl: an administrator signs in,
 * sets up a datasource with a group and a member (a nested group too, and a cycle refused with its
 * path), creates a service account whose key is shown once, a connector pushes a document with
 * that key, the administrator checks who can see the document and why, and reads all of it back
 * in the audit log with themselves as the actor.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import { adminServer, openSignedIn, submitAndWait, type AdminServer } from './admin-kit.ts';

let a: AdminServer;
let browser: Browser;

before(async () => {
  a = await adminServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await a?.close();
});

test('a newcomer sets up a datasource, a service account and checks access, and the audit log has it all', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const form = (name: string) => page.getByRole('form', { name, exact: true });

  // A datasource with a person, a group, a member and a nested group.
  await page.getByRole('link', { name: 'Datasources' }).first().click();
  await page.fill('#ds-name', 'handbook');
  await page.fill('#ds-display', 'Employee handbook');
  await Promise.all([
    page.waitForURL('**/admin/datasources/handbook'),
    page.getByRole('button', { name: 'Create a datasource' }).click(),
  ]);
  assert.equal(await page.textContent('h1'), 'Employee handbook');
  assert.equal(await page.textContent('#admin-flash'), 'The datasource was created.');

  await page.fill('#user-email', 'Ada@Example.com');
  await page.fill('#user-name', 'Ada Lovelace');
  await submitAndWait(page, form('Add a user').getByRole('button'));
  for (const name of ['staff', 'everyone']) {
    await page.fill('#group-new', name);
    await submitAndWait(page, form('Add a group').getByRole('button'));
  }
  await page.fill('#mu-group', 'staff');
  await page.fill('#mu-email', 'ada@example.com');
  await submitAndWait(page, form('Add a person to a group').getByRole('button'));
  await page.fill('#mg-group', 'everyone');
  await page.fill('#mg-member', 'staff');
  await submitAndWait(page, form('Add a group to a group').getByRole('button'));

  const tree = page.getByRole('list', { name: 'Groups with their nested groups and people' });
  assert.deepEqual(
    (await tree.innerText())
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && l !== 'Remove'),
    ['everyone', 'staff', 'ada@example.com'],
  );

  // A cycle is refused with the API's message and its path; nothing changes.
  await page.fill('#mg-group', 'staff');
  await page.fill('#mg-member', 'everyone');
  await form('Add a group to a group').getByRole('button').click();
  const alert = form('Add a group to a group').getByRole('alert');
  await alert.waitFor();
  assert.equal(
    await alert.textContent(),
    "409: Adding group 'everyone' to group 'staff' would create a cycle: staff -> everyone -> staff",
  );

  // A service account; its key is shown once, with a copy button.
  await page.getByRole('link', { name: 'Service accounts' }).click();
  await page.fill('#sa-name', 'handbook-importer');
  await form('Create a service account').getByRole('button', { name: 'Create a service account' }).click();
  const secret = page.locator('[data-secret-value]');
  await secret.waitFor();
  const key = (await secret.textContent())!;
  assert.match(key, /^svcsa_[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
  await submitAndWait(page, page.getByRole('button', { name: 'Done' }));
  assert.ok(!(await page.content()).includes(key), 'the key is never shown again');
  assert.match((await page.textContent('main'))!, /handbook-importer/);

  // A connector pushes a document with that key (no dashboard involved).
  const pushed = await fetch(`${a.s.base}/api/indexing/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      documents: {
        datasource: 'handbook',
        id: 'travel-policy',
        title: 'Travel policy',
        file_type: 'wiki',
        last_modified: '2026-03-02T09:00:00Z',
        body: { mime_type: 'text/plain', text_content: 'Trains for trips under 500 km.' },
        permissions: { allowed_groups: ['everyone'] },
      },
    }),
  });
  assert.equal(pushed.status, 200);
  await a.s.commit();

  // Who can see it, and why.
  await page.getByRole('link', { name: 'Documents' }).click();
  await page.selectOption('#doc-ds', 'handbook');
  await page.fill('#doc-id', 'travel-policy');
  await page.fill('#doc-email', 'ada@example.com');
  await Promise.all([page.waitForURL(/email=/), page.getByRole('button', { name: 'Look up' }).click()]);
  assert.equal(await page.textContent('#doc-access'), 'ada@example.com can see this document');
  assert.deepEqual(await page.getByRole('list', { name: 'Group path' }).locator('li').allTextContents(), [
    'ada@example.com',
    'staff',
    'everyone',
  ]);
  await page.fill('#doc-email', 'bob@example.com');
  await Promise.all([page.waitForURL(/bob/), page.getByRole('button', { name: 'Look up' }).click()]);
  assert.equal(await page.textContent('#doc-access'), 'bob@example.com cannot see this document');

  // The audit log has every change, by the administrator.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.fill('#audit-actor', 'root@example.com');
  await Promise.all([page.waitForURL(/actor=/), page.getByRole('button', { name: 'Filter' }).click()]);
  const rows = await page
    .locator('table.data tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent)));
  assert.deepEqual(rows.reverse(), [
    ['root@example.com', 'signin.password', 'root@example.com'],
    ['root@example.com', 'datasource.create', 'handbook'],
    ['root@example.com', 'user.create', 'handbook/Ada@Example.com'],
    ['root@example.com', 'group.create', 'handbook/staff'],
    ['root@example.com', 'group.create', 'handbook/everyone'],
    ['root@example.com', 'membership.create', 'handbook/staff/user:ada@example.com'],
    ['root@example.com', 'membership.create', 'handbook/everyone/group:staff'],
    ['root@example.com', 'service_account.create', 'handbook-importer'],
  ]);
  assert.ok(!(await page.content()).includes(key), 'no secret in the audit log');
  await context.close();
});
