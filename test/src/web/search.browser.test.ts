/**
 * The search page in Chromium: the query box by keyboard alone (focused on load, `/` brings
 * the focus back), filters applied on change with the pointer, on Enter after arrow keys, with
 * the Apply button for a custom range and without scripts, paging, the back button restoring
 * the previous search, and the page in German and English.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn } from '../../support/browser.ts';
import { webServer, type WebServer } from '../../support/web.ts';
import { seedSearchFixture, url, type SearchFixture } from './search.fixture.ts';

let s: WebServer;
let f: SearchFixture;
let browser: Browser;

before(async () => {
  s = await webServer();
  f = await seedSearchFixture(s);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await s?.close();
});

async function signedIn(locale = 'en-GB', javaScriptEnabled = true): Promise<Page> {
  const context = javaScriptEnabled
    ? await newContext(browser, { locale })
    : await browser.newContext({ locale, javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, s.base, f.ada.email, f.ada.password);
  return page;
}

const links = (page: Page) =>
  page.$$eval('.result-title', (hs) => hs.map((h) => h.querySelector('a')?.getAttribute('href') ?? ''));
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

test('keyboard alone: the box has the focus, Enter searches, / brings the focus back', async () => {
  const page = await signedIn();
  const violations: string[] = [];
  page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));
  assert.equal(await focused(page), 'q');
  assert.equal(await page.$eval('.search-box', (e) => getComputedStyle(e).display), 'flex', 'the page is styled');
  await page.keyboard.type('hamburg');
  await Promise.all([page.waitForURL(/q=hamburg/), page.keyboard.press('Enter')]);
  assert.deepEqual(await links(page), [url('mail/offsite-1'), url('mail/offsite-2')]);
  await page.keyboard.press('Tab'); // away from the box
  assert.notEqual(await focused(page), 'q');
  await page.keyboard.press('/');
  assert.equal(await focused(page), 'q');
  assert.equal(await page.inputValue('#q'), 'hamburg', '/ is not typed into the box');
  assert.deepEqual(violations, [], 'the CSP admits the page as it is');
  await page.context().close();
});

test('a filter picked with the pointer applies at once; the address holds it and its control keeps the focus', async () => {
  const page = await signedIn();
  await page.goto(`${s.base}/?q=travel`);
  assert.equal(await page.isHidden('#f-apply'), true, 'no Apply button needed');
  await Promise.all([page.waitForURL(/type=pdf/), page.selectOption('#f-type', 'pdf')]);
  assert.deepEqual(params(page), { q: 'travel', type: 'pdf' }, 'empty fields are left out');
  assert.deepEqual(await links(page), [url('drive/travel-policy-pdf')]);
  assert.equal(await focused(page), 'f-type');
  await Promise.all([page.waitForURL(/ds=drive/), page.selectOption('#f-ds', 'drive')]);
  assert.deepEqual(params(page), { q: 'travel', ds: 'drive', type: 'pdf' });
  await page.context().close();
});

test('arrow keys in a filter wait; Enter applies', async () => {
  const page = await signedIn();
  await page.goto(`${s.base}/?q=travel`);
  await page.focus('#f-date');
  await page.keyboard.press('ArrowDown'); // "Last 3 days"
  await page.keyboard.press('ArrowDown'); // "Last 7 days"
  assert.deepEqual(params(page), { q: 'travel' }, 'nothing applied yet');
  assert.equal(await page.isVisible('#f-apply'), true);
  await Promise.all([page.waitForURL(/date=week/), page.keyboard.press('Enter')]);
  assert.deepEqual(await links(page), [url('mail/offsite-1'), url('wiki/travel-policy'), url('mail/offsite-2')]);
  assert.equal(await focused(page), 'f-date');
  await page.context().close();
});

test('a custom range: two dates, then Apply', async () => {
  const page = await signedIn();
  await page.goto(`${s.base}/?q=travel`);
  assert.equal(await page.isHidden('#f-from'), true, 'the range shows only for "custom"');
  await page.selectOption('#f-date', 'custom');
  assert.equal(await focused(page), 'f-from');
  await page.fill('#f-from', '2023-01-01');
  await page.fill('#f-to', '2023-12-31');
  assert.deepEqual(params(page), { q: 'travel' });
  await Promise.all([page.waitForURL(/date=custom/), page.click('#f-apply')]);
  assert.deepEqual(params(page), { q: 'travel', date: 'custom', from: '2023-01-01', to: '2023-12-31' });
  assert.deepEqual(await links(page), [url('drive/expenses')]);
  assert.equal(await page.inputValue('#f-from'), '2023-01-01');
  await page.context().close();
});

test('without scripts the Apply button applies the filters', async () => {
  const page = await signedIn('en-GB', false);
  await page.goto(`${s.base}/?q=travel`);
  await page.selectOption('#f-type', 'email');
  await page.selectOption('#f-date', 'custom');
  await page.fill('#f-from', '2020-01-01');
  assert.equal(new URL(page.url()).searchParams.get('type'), null, 'a change alone does nothing');
  await Promise.all([page.waitForURL(/type=email/), page.click('#f-apply')]);
  assert.equal(params(page).from, '2020-01-01');
  assert.deepEqual(await links(page), [url('mail/offsite-1'), url('mail/offsite-2')]);
  await page.context().close();
});

test('paging, and the back button restores the previous search', async () => {
  const page = await signedIn();
  await page.goto(`${s.base}/?q=minutes`);
  const first = await links(page);
  assert.equal(first.length, 10);
  await Promise.all([page.waitForURL(/page=2/), page.click('.paging a[rel=next]')]);
  const second = await links(page);
  assert.equal(second.length, 10);
  assert.equal(new Set([...first, ...second]).size, 20, 'page 2 holds other results');
  await Promise.all([page.waitForURL(/page=3/), page.click('.paging a[aria-label="Page 3"]')]);
  assert.equal((await links(page)).length, 3);
  await Promise.all([page.waitForURL(/q=travel/), page.fill('#q', 'travel').then(() => page.press('#q', 'Enter'))]);
  await Promise.all([page.waitForURL(/type=email/), page.selectOption('#f-type', 'email')]);

  await page.goBack();
  assert.deepEqual(params(page), { q: 'travel' });
  assert.equal(await page.inputValue('#f-type'), '');
  await page.goBack();
  assert.deepEqual(params(page), { q: 'minutes', page: '3' });
  assert.equal(await page.inputValue('#q'), 'minutes');
  assert.equal((await links(page)).length, 3);
  await page.goBack();
  assert.deepEqual(await links(page), second);
  await page.goForward();
  assert.equal((await links(page)).length, 3);
  await page.context().close();
});

test('German by default, English from the browser, and the switch keeps the search', async () => {
  const de = await signedIn('de-DE');
  await de.goto(`${s.base}/?q=travel`);
  assert.equal(await de.textContent('label[for=f-type]'), 'Dateityp');
  assert.equal(await de.textContent('#f-date option[value=week]'), 'Letzte 7 Tage');
  assert.match((await de.textContent('.results-title'))!, /Ergebnisse für „travel“/);
  assert.equal(await de.getAttribute('#f-apply', 'hidden'), '');
  await Promise.all([de.waitForLoadState('load'), de.click('.lang-switch button[value=en]')]);
  await de.waitForFunction(() => document.documentElement?.lang === 'en');
  assert.equal(new URL(de.url()).searchParams.get('q'), 'travel');
  assert.equal(await de.textContent('label[for=f-type]'), 'File type');
  assert.equal(await de.textContent('#f-ds optgroup[label="Kinds of source"] option[value=mailsuite]'), 'Mail');
  await de.context().close();
});
