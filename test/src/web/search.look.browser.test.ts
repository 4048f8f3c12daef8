/**
 * How the search page looks and reads: axe-core finds no serious or critical violation on a
 * results page, the zero-result page and a page with a bad parameter, in light and dark, at
 * desktop and phone width; at 375 px nothing scrolls sideways, long unbroken words included.
 * Also takes the README's screenshot (docs/screenshots/search.png with UPDATE_SCREENSHOTS=1,
 * else into a temporary folder).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, newContext, signIn } from '../../support/browser.ts';
import { webServer, type WebServer } from '../../support/web.ts';
import { seedSearchFixture, type SearchFixture } from './search.fixture.ts';

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

let s: WebServer;
let f: SearchFixture;
let browser: Browser;

before(async () => {
  s = await webServer();
  f = await seedSearchFixture(s);
  const long = 'Reisekostenabrechnungsformularausfüllanleitung'.repeat(3);
  const pushed = await s.api('POST', '/documents', {
    documents: {
      datasource: 'drive',
      id: 'long-words',
      title: `Checklist ${long}`,
      file_type: 'file',
      path: `Finance > ${long} > ${long}.pdf`,
      path_preview: `https://intranet.example.com/drive/${long}`,
      body: { mime_type: 'application/pdf', text_content: `Checklist forms ${long} ${long}` },
    },
  });
  assert.equal(pushed.status, 200);
  await s.commit();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await s?.close();
});

const PAGES = [
  ['results', '/?q=travel'],
  ['zero results', '/?q=zzyzx&type=pdf'],
  ['bad parameter', '/?q=travel&page=0'],
] as const;

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 375]) {
    test(`axe-core: no serious or critical violation, ${colorScheme}, ${width} px`, async () => {
      const context = await newContext(browser, { colorScheme, width, height: 800, bypassCSP: true, locale: 'en-GB' });
      const page = await context.newPage();
      await signIn(page, s.base, f.ada.email, f.ada.password);
      for (const [name, path] of PAGES) {
        await page.goto(s.base + path);
        await page.locator('details').evaluateAll((ds) => ds.forEach((d) => d.setAttribute('open', '')));
        assert.deepEqual(await axeViolations(page), [], `${name} (${path})`);
      }
      await context.close();
    });
  }
}

test('at 375 px nothing scrolls sideways, with every list open and long words', async () => {
  const context = await newContext(browser, { width: 375, height: 740, locale: 'de-DE' });
  const page = await context.newPage();
  await signIn(page, s.base, f.ada.email, f.ada.password);
  for (const path of [
    '/?q=travel',
    '/?q=minutes&page=2',
    '/?q=zzyzx&ds=drive',
    '/?q=travel&date=custom&from=2020-01-01',
  ]) {
    await page.goto(s.base + path);
    await page.locator('details').evaluateAll((ds) => ds.forEach((d) => d.setAttribute('open', '')));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(overflow, 0, `${path}: ${overflow} px too wide`);
    if (path === '/?q=checklist')
      assert.equal(await page.locator('.result-path', { hasText: 'Reisekosten' }).count(), 1);
  }
  await context.close();
});

test('screenshot of a populated search page', async () => {
  const dir = process.env.UPDATE_SCREENSHOTS === '1' ? SCREENSHOTS : await mkdtemp(join(tmpdir(), 'search-shot-'));
  await mkdir(dir, { recursive: true });
  const context = await newContext(browser, { width: 1100, height: 860, locale: 'en-GB' });
  const page = await context.newPage();
  await signIn(page, s.base, f.ada.email, f.ada.password);
  await page.goto(`${s.base}/?q=travel+policy`);
  assert.ok((await page.locator('.result').count()) >= 3);
  await page.locator('.result details.duplicates summary').first().click();
  await page.locator('#q').blur();
  const file = join(dir, 'search.png');
  await page.screenshot({ path: file });
  assert.ok((await stat(file)).size > 10_000);
  await context.close();
});
