/**
 * The dashboard's connectors page in Chromium, over the real connector scheduler and the files
 * connector reading a temporary folder: create a connector with the form (a bad settings object is
 * refused with the API's 422 in the form), run it now and read its last run back (counts, state),
 * pause it (a run is then refused 409 with the API's message), resume it, delete it after the
 * confirmation; markup in its name shows as text; axe-core finds nothing serious on the page with
 * a connector and its run, at 375 px.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser } from '../../support/browser.ts';
import { adminServer, openSignedIn, submitAndWait, type AdminServer } from './admin-kit.ts';

let a: AdminServer;
let browser: Browser;
let root: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'admin-connector-files-'));
  await writeFile(join(root, 'handbook.txt'), 'Employees book trains for trips under 500 km.');
  await writeFile(join(root, 'leave.txt'), 'Annual leave is 30 days.');
  a = await adminServer({ connectors: true, commitIntervalMs: 10 });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await a?.close();
  await rm(root, { recursive: true, force: true });
});

const NAME = 'Shared <img src=x onerror=alert(1)> drive';
const form = (page: Page, name: string) => page.getByRole('form', { name, exact: true });

/** Wait for the connector's run to end, then reload the page. */
async function afterRun(page: Page): Promise<void> {
  const id = (await page.locator('article.connector code').first().textContent())!;
  await a.s.services.connectors!.whenIdle(id);
  await page.reload();
}

test('connectors: create, run now, pause, a refused run, resume and delete', async () => {
  const { context, page } = await openSignedIn(browser, a.s.base, a.root, '/admin/connectors', {
    width: 375,
    height: 800,
    bypassCSP: true,
  });
  let alerted = false;
  page.on('dialog', (d) => {
    if (d.type() === 'alert') alerted = true;
  });
  assert.equal(await page.textContent('h1'), 'Connectors');
  assert.match((await page.textContent('main'))!, /No connectors\./);

  const create = form(page, 'Create a connector');
  await page.fill('#conn-name', NAME);
  await page.selectOption('#conn-type', 'fileshares');
  await page.fill('#conn-ds', 'shared');
  await page.fill('#conn-interval', '');
  await page.fill('#conn-settings', '{"root": 5}');
  await create.getByRole('button', { name: 'Create a connector' }).click();
  const refused = create.getByRole('alert');
  await refused.waitFor();
  assert.match((await refused.textContent())!, /^422: /);

  await page.fill('#conn-settings', JSON.stringify({ root }));
  await submitAndWait(page, create.getByRole('button', { name: 'Create a connector' }));
  assert.equal(await page.textContent('#admin-flash'), 'The connector was created.');
  const card = page.locator('article.connector');
  assert.equal(await card.getByRole('heading', { level: 2 }).textContent(), NAME);
  assert.match((await card.textContent())!, /Type fileshares, datasource shared, runs only when started\./);
  assert.match((await card.textContent())!, /Last runnever/);

  await submitAndWait(page, page.getByRole('button', { name: `Run now: ${NAME}` }));
  assert.equal(await page.textContent('#admin-flash'), 'The run started.');
  await afterRun(page);
  assert.match((await card.textContent())!, /Stateidle/);
  assert.match((await card.textContent())!, /Run 1: completed, [^.]+\. 2 sent, 0 unchanged, 0 skipped, 0 failed/);

  // axe on the page with a connector and its run, at phone width.
  assert.deepEqual(await axeViolations(page), []);

  await submitAndWait(page, page.getByRole('button', { name: `Pause ${NAME}` }));
  assert.equal(await page.textContent('#admin-flash'), 'The connector is paused.');
  assert.match((await card.textContent())!, /Statepaused/);
  const run = form(page, `Run now: ${NAME}`);
  await run.getByRole('button').click();
  await run.getByRole('alert').waitFor();
  assert.match((await run.getByRole('alert').textContent())!, /^409: Connector [\w-]+ is paused; resume it to run it$/);

  await submitAndWait(page, page.getByRole('button', { name: `Resume ${NAME}` }));
  assert.equal(await page.textContent('#admin-flash'), 'The connector runs again.');
  await afterRun(page);
  assert.match((await card.textContent())!, /Run 2: completed, [^.]+\. 0 sent, 2 unchanged/);

  await submitAndWait(page, page.getByRole('button', { name: `Delete the connector ${NAME}` }));
  assert.equal(await page.textContent('#admin-flash'), 'Deleted.');
  assert.match((await page.textContent('main'))!, /No connectors\./);
  assert.equal(alerted, false, 'the name never ran as markup');
  await context.close();
});
