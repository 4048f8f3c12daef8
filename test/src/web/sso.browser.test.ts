/**
 * Single sign-on in Chromium against the real OpenID provider (oidc-provider on 127.0.0.1): the
 * button on our sign-in page, the provider's login and consent screens, and back to the page the
 * person asked for, signed in as the provider's verified email.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext } from '../../support/browser.ts';
import { CLIENT_ID, CLIENT_SECRET, startOpenIdProvider, type OpenIdProvider } from '../../support/oidc-provider.ts';
import { webServer, type WebServer } from '../../support/web.ts';

let provider: OpenIdProvider;
let s: WebServer;
let browser: Browser;

before(async () => {
  provider = await startOpenIdProvider();
  s = await webServer({
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_LABEL: 'Example ID',
    },
  });
  provider.setRedirectUri(`${s.base}/signin/oidc/callback`);
  provider.setAccount('grace', { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await s?.close();
  await provider?.close();
});

test('sign in through the provider and land on the asked page, signed in as the verified email', async () => {
  const context = await newContext(browser, { locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${s.base}/chat`);
  assert.match(page.url(), /\/signin\?next=%2Fchat/);
  await Promise.all([page.waitForURL((u) => u.origin === provider.issuer), page.click('#sso')]);
  await page.fill('input[name=login]', 'grace');
  await page.fill('input[name=password]', 'anything');
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
  if (await page.$('input[name=prompt][value=consent]')) {
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
  }
  await page.waitForURL((u) => u.origin === s.base && u.pathname === '/chat');
  assert.match((await page.textContent('header'))!, /grace@example\.com/);
  const cookie = (await context.cookies()).find((c) => c.name === 'es_session');
  assert.ok(cookie?.httpOnly);
  await context.close();
});
