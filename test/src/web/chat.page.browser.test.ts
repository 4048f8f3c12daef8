/**
 * The chat page's options and accessibility in Chromium: the web search
 * toggle is replaced by a note when no provider is configured and offered
 * with the configured modes otherwise (and sent as `metadata.web_search_mode`);
 * the options reach the completion request; keyboard-only use; axe-core
 * finds no serious or critical violation, light and dark, with an answer and
 * the sources open; no horizontal scrolling at 375 px.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser } from '../../support/browser.ts';
import {
  answered,
  ask,
  chatServer,
  openChat,
  startFakeUpstream,
  type ChatServer,
  type FakeUpstream,
} from './chat-kit.ts';

let c: ChatServer;
let browser: Browser;

before(async () => {
  c = await chatServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await c?.s.close();
});

test('without a web search provider the page says so instead of offering web search', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  assert.equal(await page.locator('#chat-web').count(), 0);
  assert.equal(await page.locator('#chat-web-mode').count(), 0);
  assert.equal(await page.textContent('#chat-web-off'), 'Web search is not configured on this server.');
  await close();
});

test('with a provider, web search and its modes are offered; the options go into the completion request', async () => {
  const up: FakeUpstream = await startFakeUpstream();
  const w = await chatServer({
    upstream: up.url,
    env: {
      BRAVE_API_KEY: 'brave-test-key',
      SEARXNG_BASE_URL: 'http://127.0.0.1:9',
      WEB_SEARCH_DEFAULT_MODE: 'context',
    },
  });
  try {
    const agent = await w.s.call('POST', '/api/admin/agents', 'master-key-for-tests-0123456789', {
      name: 'HR helper',
      tools: ['serviceSearch', 'webSearch'],
    });
    assert.equal(agent.status, 201);
    up.script = [{ content: ['Fine.'] }];
    const { page, close } = await openChat(browser, w.s, w.ada, { locale: 'de-DE' });
    assert.equal(await page.locator('#chat-web-off').count(), 0);
    const values = (selector: string) =>
      page.locator(`${selector} option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(await values('#chat-web-mode'), ['search', 'context', 'engine2']);
    assert.equal(await page.inputValue('#chat-web-mode'), 'context', 'the configured default mode');
    assert.deepEqual(await values('#chat-model'), ['fake-model', 'extractive']);
    assert.deepEqual(await values('#chat-agent'), ['', agent.body.id]);
    assert.equal(await page.inputValue('#chat-language'), 'de', 'the page language by default');
    await page.check('#chat-web');
    await page.uncheck('#chat-internal');
    await page.selectOption('#chat-web-mode', 'engine2');
    await page.selectOption('#chat-agent', { label: 'HR helper' });
    await page.selectOption('#chat-language', 'en');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/beta/serviceai/chat/completions')),
      ask(page, 'Hallo'),
    ]);
    await answered(page);
    const body = request.postDataJSON();
    assert.equal(body.stream, true);
    assert.equal(body.model, 'fake-model');
    assert.deepEqual(body.tools, [{ type: 'function', function: { name: 'webSearch' } }]);
    assert.deepEqual(body.metadata, { language: 'en', agent_id: agent.body.id, web_search_mode: 'engine2' });
    assert.equal(request.headers()['x-csrf-token']?.length, 43, 'the CSRF header is sent');
    assert.deepEqual(
      up.requests.at(-1).tools.map((t: { function: { name: string } }) => t.function.name),
      ['webSearch'],
    );
    await close();
  } finally {
    await w.s.close();
    await up.close();
  }
});

test('keyboard alone: type, Enter sends, Tab reaches a citation chip, Enter opens the sources, Escape closes', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await page.keyboard.type('When do employees book trains?');
  await page.keyboard.press('Enter');
  await answered(page);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'chat-prompt', 'the focus stays in the box');
  // Backwards from the message box: the answer's rating buttons, its actions, then its citation chips.
  const visited: string[] = [];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Shift+Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    visited.push(focused);
    if ((await page.evaluate(() => document.activeElement?.className)) === 'cite') break;
  }
  assert.deepEqual(
    visited.slice(0, 5).map((x) => x.replace(/\d+/, 'n')),
    ['Not helpful', 'Helpful', 'Regenerate', 'Sources (n)', 'Copy'],
  );
  await page.keyboard.press('Enter');
  await page.locator('#chat-sources').waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'A', 'the focus is on the source link');
  await page.keyboard.press('Escape');
  await page.locator('#chat-sources').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'cite');
  await close();
});

test('axe-core finds no serious or critical violation, light and dark; no horizontal scroll at 375 px', async () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      const { page, close } = await openChat(browser, c.s, c.ada, {
        locale: 'en-US',
        colorScheme,
        width,
        height: width === 375 ? 740 : 900,
        bypassCSP: true,
      });
      await ask(page, 'When do employees book trains?');
      await answered(page);
      await page.locator('.msg-assistant button.cite').first().click();
      await page.locator('#chat-sources').waitFor({ state: 'visible' });
      assert.deepEqual(await axeViolations(page), [], `${colorScheme} at ${width} px`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      assert.equal(overflow, false, `no horizontal scrolling at ${width} px (${colorScheme})`);
      await close();
    }
  }
});
