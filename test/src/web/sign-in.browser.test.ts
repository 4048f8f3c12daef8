/**
 * Sign-in in Chromium: the form, a wrong password, sign-out (the old cookie then gets 401 from
 * the API), the language switch, keyboard-only use, and axe-core on the sign-in page.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, newContext, signIn } from '../../support/browser.ts';
import { webServer, type Person, type WebServer } from '../../support/web.ts';

let s: WebServer;
let browser: Browser;
let ada: Person;

before(async () => {
  s = await webServer();
  browser = await launchBrowser();
  await s.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  ada = await s.person('ada@example.com', { name: 'Ada Lovelace', datasources: ['wiki'] });
});
after(async () => {
  await browser?.close();
  await s?.close();
});

test('signing in with the right password lands on the search page with the query box focused', async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page, s.base, ada.email, ada.password);
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'q');
  assert.match((await page.textContent('header'))!, /Ada Lovelace/);
  await context.close();
});

test('a wrong password shows an error and sets no session', async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${s.base}/signin`);
  await page.fill('#email', ada.email);
  await page.fill('#password', 'definitely not it');
  await page.click('button[type=submit].primary');
  await page.waitForSelector('[role=alert]');
  assert.match((await page.textContent('[role=alert]'))!, /E-Mail oder Passwort ist falsch/);
  assert.equal(
    (await context.cookies()).some((c) => c.name === 'es_session'),
    false,
  );
  await context.close();
});

test('after five wrong passwords the form refuses even the right one and says when to retry', async () => {
  const bea = await s.person('bea@example.com');
  const context = await newContext(browser, { locale: 'en-US' });
  const page = await context.newPage();
  for (let i = 0; i < 6; i++) {
    await page.goto(`${s.base}/signin`);
    await page.fill('#email', bea.email);
    await page.fill('#password', i < 5 ? `wrong password ${i}` : bea.password);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit].primary')]);
    await page.waitForSelector('[role=alert]');
  }
  assert.match((await page.textContent('[role=alert]'))!, /Too many failed attempts\. Try again in 15 minutes/);
  assert.equal(new URL(page.url()).pathname, '/signin');
  assert.equal(
    (await context.cookies()).some((c) => c.name === 'es_session'),
    false,
  );
  await context.close();
});

test('signing out ends the session: the old cookie gets 401 from the API', async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page, s.base, ada.email, ada.password);
  const cookie = (await context.cookies()).find((c) => c.name === 'es_session')!;
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Lax');
  await Promise.all([page.waitForURL(/\/signin/), page.click('form.signout button')]);
  const res = await fetch(`${s.base}/api/beta/search?query=x`, { headers: { cookie: `es_session=${cookie.value}` } });
  assert.equal(res.status, 401);
  await page.goto(`${s.base}/`);
  assert.match(page.url(), /\/signin\?next=/);
  await context.close();
});

test('the page follows the browser language and the switch changes it', async () => {
  const context = await newContext(browser, { locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${s.base}/signin`);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.textContent('h1'), 'Sign in');
  await Promise.all([page.waitForLoadState('load'), page.click('.lang-switch button[value=de]')]);
  await page.waitForFunction(() => document.documentElement?.lang === 'de');
  assert.equal(await page.textContent('h1'), 'Anmelden');
  await context.close();
});

test('keyboard alone: tab to the fields, type, and press Enter', async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${s.base}/signin`);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'email', 'the email field has focus');
  await page.keyboard.type(ada.email);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'password');
  await page.keyboard.type(ada.password);
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.keyboard.press('Enter')]);
  await context.close();
});

test('axe-core finds no serious or critical violation on the sign-in page, light and dark, at phone width', async () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await newContext(browser, { colorScheme, width: 375, height: 740, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${s.base}/signin`);
    assert.deepEqual(await axeViolations(page), [], colorScheme);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no horizontal scrolling at 375 px');
    await context.close();
  }
});
