/**
 * Visibility in Chromium: a document the person may not see never appears on the search page —
 * not as a result, not among the duplicates, the same-thread or the similar documents, with
 * every list opened — while the person allowed to see it does see it (so the check can fail).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn } from '../../support/browser.ts';
import { webServer, type Person, type WebServer } from '../../support/web.ts';
import { HIDDEN_FROM_ADA, seedSearchFixture, url, type SearchFixture } from './search.fixture.ts';

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

/** Every link on the results page of `query`, with every collapsed list opened first. */
async function linksSeenBy(who: Person, query: string): Promise<string[]> {
  const context = await newContext(browser, { locale: 'en-GB' });
  const page: Page = await context.newPage();
  await signIn(page, s.base, who.email, who.password);
  await page.goto(`${s.base}/?q=${encodeURIComponent(query)}`);
  await page.$$eval('details', (all) => all.forEach((d) => d.setAttribute('open', '')));
  const hrefs = await page.$$eval('main a[href]', (as) => as.map((a) => a.getAttribute('href') ?? ''));
  const text = await page.textContent('main');
  await context.close();
  return [...hrefs, text ?? ''];
}

test('documents of another group, another person and an unregistered datasource appear nowhere for Ada', async () => {
  for (const query of ['travel', 'offsite', 'budget', 'travel policy']) {
    const seen = await linksSeenBy(f.ada, query);
    for (const hidden of HIDDEN_FROM_ADA) {
      assert.equal(
        seen.some((s) => s.includes(hidden)),
        false,
        `${hidden} on Ada's page for "${query}"`,
      );
    }
  }
});

test('the person in the group sees the group-only document, so the check above can fail', async () => {
  const seen = await linksSeenBy(f.eve, 'travel policy');
  assert.ok(seen.includes(url('wiki/travel-policy-hr')), 'Eve, in the hr group, sees the hr copy of the travel policy');
});
