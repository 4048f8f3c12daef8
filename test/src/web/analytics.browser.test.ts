/**
 * Search analytics in Chromium: a search and then a click on a result (pointer, keyboard, on a
 * later page) is recorded with its rank and page; a chat answer is rated down with a comment and
 * then up with the keyboard; the analytics page shows the search, the click and the feedback,
 * with markup in queries and comments as text (the tests run in order on one server, and the
 * page shows what the tests before it recorded); axe-core finds no serious or critical violation on
 * the analytics page and on an answer with its feedback open (light and dark, 1280 and 375 px).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { eventually, recordsOnDisk } from '../../support/analytics.ts';
import { axeViolations, launchBrowser, newContext, signIn } from '../../support/browser.ts';
import { webServer, type Person, type WebServer } from '../../support/web.ts';
import { answered, ask, conversationId } from './chat-kit.ts';
import { seedSearchFixture, type SearchFixture } from './search.fixture.ts';

const XSS = '<img src=x onerror=alert(document.domain)>';
let s: WebServer;
let f: SearchFixture;
let admin: Person;
let browser: Browser;

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' } });
  f = await seedSearchFixture(s);
  admin = await s.person('root@example.com', { roles: ['administrator'], name: 'Root' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await s?.close();
});

/** A signed-in page of `who`; documents' own addresses answer a small page (the network is closed). */
async function open(who: Person, opts: Parameters<typeof newContext>[1] = {}, path = '/') {
  const context = await newContext(browser, { locale: 'en-GB', ...opts });
  await context.route('https://intranet.example.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Document</title>' }),
  );
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, s.base, who.email, who.password, path);
  return { page, dialogs, close: () => context.close() };
}

const records = () => recordsOnDisk(s.dir, s.services.analytics);
const click = (queryId: string) =>
  eventually(
    async () => (await records()).find((r) => r.type === 'click' && r.query_id === queryId),
    `the click on ${queryId}`,
  );
const queryIdOf = (page: Page) =>
  page.evaluate(() => JSON.parse(document.getElementById('page-data')!.textContent!).analytics);

test('a search, then a click on a result: recorded with its rank and page, by pointer and keyboard', async () => {
  const { page, close } = await open(f.ada);
  await page.fill('#q', 'travel');
  await Promise.all([page.waitForURL(/q=travel/), page.press('#q', 'Enter')]);
  const first = await queryIdOf(page);
  await Promise.all([page.waitForURL(/intranet\.example\.com/), page.locator('.result-title a').nth(1).click()]);
  const pointer = await click(first.query_id);
  assert.deepEqual(
    [pointer.type === 'click' && [pointer.rank, pointer.page, pointer.position, pointer.result_id]],
    [[2, 1, 2, first.results[1]]],
  );

  await page.goto(`${s.base}/?q=minutes&page=2`);
  const second = await queryIdOf(page);
  await page.locator('.result-title a').nth(2).focus();
  await Promise.all([page.waitForURL(/intranet\.example\.com/), page.keyboard.press('Enter')]);
  const keyboard = await click(second.query_id);
  assert.deepEqual(
    [keyboard.type === 'click' && [keyboard.rank, keyboard.page, keyboard.position, keyboard.result_id]],
    [[3, 2, 13, second.results[2]]],
  );
  await close();
});

test('a chat answer rated down with a comment, then up with the keyboard; the labels in German', async () => {
  const { page, close } = await open(f.ada, {}, '/chat');
  await ask(page, 'What does the travel policy say about trains?');
  const answer = await answered(page);
  const id = await conversationId(page);
  const group = page.getByRole('group', { name: 'Was this answer helpful?' });
  const down = group.getByRole('button', { name: 'Not helpful' });
  const up = group.getByRole('button', { name: 'Helpful', exact: true });
  assert.equal(await down.getAttribute('aria-pressed'), 'false');
  await down.click();
  await group.getByRole('status').getByText('Thank you for your feedback.').waitFor();
  assert.equal(await down.getAttribute('aria-pressed'), 'true');
  await group.getByLabel('Comment (optional)').fill(`Wrong year ${XSS}`);
  await group.getByRole('button', { name: 'Send comment' }).click();
  await group.getByRole('status').getByText('Thank you, your comment was sent.').waitFor();
  const rated = (await records()).filter((r) => r.type === 'feedback');
  const last = rated.at(-1)!;
  assert.ok(last.type === 'feedback');
  assert.deepEqual(
    [last.rating, last.comment, last.question, last.conversation_id],
    ['down', `Wrong year ${XSS}`, 'What does the travel policy say about trains?', id],
  );
  assert.match(answer, /Book trains for business travel under 600 km/);
  assert.match(last.answer, /Book trains for business travel under 600 km and economy flights beyond that\. \[1\]/);

  await up.focus();
  await page.keyboard.press('Space');
  await eventually(async () => ((await records()).at(-1) as { rating?: string }).rating === 'up' || undefined, 'up');
  const again = (await records()).at(-1)!;
  assert.ok(again.type === 'feedback' && again.id === last.id && again.comment === last.comment);
  assert.equal(await up.getAttribute('aria-pressed'), 'true');
  assert.equal(await down.getAttribute('aria-pressed'), 'false');
  await close();

  const de = await open(f.ada, { locale: 'de-DE' }, `/chat/${id}`);
  const groupDe = de.page.getByRole('group', { name: 'War diese Antwort hilfreich?' });
  await groupDe.getByRole('button', { name: 'Nicht hilfreich' }).waitFor();
  await de.close();
});

test('the analytics page shows the searches, clicks and feedback; markup in them stays text', async () => {
  const ada = await open(f.ada);
  await ada.page.goto(`${s.base}/?q=${encodeURIComponent(`${XSS} travel`)}`);
  assert.ok((await ada.page.locator('.result').count()) > 0);
  await ada.close();
  const { page, dialogs, close } = await open(admin, {}, '/admin/analytics');
  await page.getByRole('heading', { name: 'Search analytics', level: 1 }).waitFor();
  const top = page.locator('#analytics-top');
  assert.equal(await top.locator('td.query-text', { hasText: /^travel$/ }).count(), 1);
  assert.equal(await top.locator('td.query-text', { hasText: `${XSS} travel` }).count(), 1);
  const ctr = page.locator('.figure', { hasText: 'Click-through rate' }).locator('.figure-value');
  assert.match((await ctr.textContent()) ?? '', /^\d+(\.\d)? %$/);
  assert.notEqual(await ctr.textContent(), '0 %');
  const feedback = page.locator('#analytics-feedback li').first();
  assert.equal(await feedback.locator('.feedback-rating').textContent(), 'Helpful');
  assert.equal(await feedback.locator('.feedback-comment').textContent(), `Comment: Wrong year ${XSS}`);
  assert.equal(await page.locator('main img').count(), 0, 'no element made from a payload');
  assert.deepEqual(dialogs, []);
  await close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 375]) {
    test(`axe-core: the analytics page and a rated answer, ${colorScheme}, ${width} px`, async () => {
      const opts = { colorScheme, width, height: 800, bypassCSP: true };
      const a = await open(admin, opts, '/admin/analytics');
      await a.page.locator('details').evaluateAll((ds) => ds.forEach((d) => d.setAttribute('open', '')));
      assert.deepEqual(await axeViolations(a.page), [], 'analytics page');
      const overflow = await a.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.equal(overflow, 0, `the analytics page is ${overflow} px too wide`);
      await a.close();
      const c = await open(f.ada, opts, '/chat');
      await ask(c.page, 'How many meeting minutes are there?');
      await answered(c.page);
      await c.page.getByRole('button', { name: 'Helpful', exact: true }).click();
      await c.page.getByLabel('Comment (optional)').waitFor();
      assert.deepEqual(await axeViolations(c.page), [], 'chat answer with feedback');
      await c.close();
    });
  }
}
