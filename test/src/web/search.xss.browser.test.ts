/**
 * Document and datasource text on the search page is text, never markup: payloads in titles,
 * paths, bodies (highlights and summary), authors, datasource display names and sub names,
 * and in the titles of duplicates, render as the characters they are in Chromium; no dialog
 * opens, no injected element exists; a `javascript:` path_preview is not a link.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, signIn } from '../../support/browser.ts';
import { webServer, type Person, type WebServer } from '../../support/web.ts';

const SCRIPT = '<script>alert("xss-script")</script>';
const IMG = '"><img src=x onerror=alert("xss-img") id=injected>';
const PAYLOAD = `${SCRIPT}${IMG}`;

let s: WebServer;
let browser: Browser;
let mallory: Person;

before(async () => {
  s = await webServer();
  browser = await launchBrowser();
  const ds = await s.api('POST', '/datasources', {
    name: 'evil',
    display_name: `Source ${PAYLOAD}`,
    subs: [
      { name: `Sub ${PAYLOAD}`, key: 'sub' },
      { name: `Child ${IMG}`, key: 'child', parent_key: 'sub' },
    ],
  });
  assert.equal(ds.status, 200, JSON.stringify(ds.body));
  mallory = await s.person('mallory@example.com', { name: `Mallory ${IMG}`, datasources: ['evil'] });
  const doc = (id: string, previewUrl: string) => ({
    datasource: 'evil',
    id,
    title: `Zebra report ${PAYLOAD}`,
    file_type: 'wiki',
    path: `Top > ${PAYLOAD} > Zebra`,
    path_preview: previewUrl,
    author: `Author ${PAYLOAD}`,
    last_modified: '2026-02-01T00:00:00Z',
    data_source_sub: 'sub',
    data_source_sub_sub: 'child',
    body: { mime_type: 'text/plain', text_content: `The zebra ${PAYLOAD} crossed the road. ${IMG} zebra again.` },
  });
  const pushed = await s.api('POST', '/documents', {
    documents: [doc('z1', 'javascript:alert("xss-link")'), doc('z2', ' java\tscript:alert("xss-link2")')],
  });
  assert.equal(pushed.status, 200);
  await s.commit();
});
after(async () => {
  await browser?.close();
  await s?.close();
});

test('payloads in titles, paths, bodies, authors, datasource and sub names render as text', async () => {
  const context = await newContext(browser, { locale: 'en-GB' });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, s.base, mallory.email, mallory.password);
  await page.goto(`${s.base}/?q=zebra`);
  await page.waitForSelector('.result');

  assert.equal(await page.locator('.result').count(), 1, 'the two copies fold into one result');
  const result = page.locator('.result').first();
  assert.equal(await result.locator('.result-title').textContent(), `Zebra report ${PAYLOAD}`);
  assert.equal(await result.locator('.result-path').textContent(), `Top > ${PAYLOAD} > Zebra`);
  assert.equal(
    await result.locator('.result-source').textContent(),
    `Source ${PAYLOAD} › Sub ${PAYLOAD} › Child ${IMG}`,
  );
  assert.equal(await result.locator('.result-author').textContent(), `by Author ${PAYLOAD}`);
  assert.match((await result.locator('.result-highlights').textContent())!, /The zebra <script>alert\("xss-script"\)/);
  assert.match(
    (await result.locator('.result-summary').textContent())!,
    /"><img src=x onerror=alert\("xss-img"\) id=injected>/,
  );
  await result.locator('details.duplicates summary').click();
  assert.equal(await result.locator('details.duplicates li').textContent(), `Zebra report ${PAYLOAD}Source ${PAYLOAD}`);
  assert.equal(
    await page.locator(`#f-ds option[value=evil]`).textContent(),
    `Source ${PAYLOAD}`,
    'the filter shows the display name as text',
  );
  assert.match((await page.locator('header .who').textContent())!, /Mallory "><img/);

  // Nothing was injected: no dialog, no element from the payloads, only the page's own scripts.
  assert.equal(await page.locator('#injected').count(), 0);
  assert.equal(await page.locator('img[onerror]').count(), 0);
  assert.equal(await page.locator('main script').count(), 0);
  assert.equal(await page.locator('a[href^="javascript" i], a[href*="script:" i]').count(), 0);
  assert.deepEqual(dialogs, []);
  await context.close();
});

test('a path_preview that is not an http(s) address is not a link', async () => {
  const context = await newContext(browser, { locale: 'en-GB' });
  const page = await context.newPage();
  await signIn(page, s.base, mallory.email, mallory.password);
  await page.goto(`${s.base}/?q=zebra`);
  const title = page.locator('.result-title').first();
  assert.equal(await title.locator('a').count(), 0);
  assert.equal(await title.locator('span.doc-text').count(), 1);
  assert.equal(await page.locator('.result a[href]').count(), 0, 'neither the result nor its duplicate links');
  await context.close();
});
