/**
 * The chat page in Chromium with the built-in extractive model over real
 * indexed documents: an answer with citation chips and the sources panel,
 * saving, the list of past conversations (reopen, delete), new chat, copy,
 * and German/English.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import { answered, ask, chatServer, conversationId, openChat, type ChatServer } from './chat-kit.ts';

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

test('an answer quotes the documents with citation chips; a chip opens the sources with links', async () => {
  const { page, dialogs, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'chat-prompt', 'the message box has focus');
  await ask(page, 'When do employees book trains?');
  const text = await answered(page);
  assert.match(text, /Employees book trains for trips under 500 km\./);
  const chips = page.locator('.msg-assistant button.cite');
  assert.ok((await chips.count()) >= 1);
  const first = chips.first();
  assert.equal(await first.textContent(), '1');
  assert.equal(await first.getAttribute('aria-label'), 'Source 1: Travel policy');

  await first.click();
  const panel = page.locator('#chat-sources');
  await panel.waitFor({ state: 'visible' });
  const current = panel.locator('li[aria-current=true] a');
  assert.equal(await current.textContent(), 'Travel policy');
  assert.equal(await current.getAttribute('href'), 'https://intranet.example.com/handbook/travel');
  assert.equal(await panel.locator('li[aria-current=true] .chat-source-meta').textContent(), 'Handbook');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Travel policy', 'focus on the source');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'cite', 'focus back on the chip');
  assert.deepEqual(dialogs, []);
  await close();
});

test('the conversation is saved and listed; it reopens from the list and by its address, and can be deleted', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await ask(page, 'How many days can I work remotely?');
  await answered(page);
  const id = await conversationId(page);
  const link = page.locator(`#chat-history-list a[data-id="${id}"]`);
  await link.waitFor();
  assert.equal(await link.textContent(), 'How many days can I work remotely?');
  assert.equal(await link.getAttribute('aria-current'), 'page');

  await page.click('#chat-new');
  await page.waitForURL((u) => u.pathname === '/chat');
  assert.equal(await page.locator('.msg').count(), 0, 'a new chat starts empty');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'chat-prompt');

  await link.click();
  await page.waitForURL((u) => u.pathname === `/chat/${id}`);
  await page.locator('.msg-assistant').waitFor();
  assert.match(await page.locator('.msg-user').innerText(), /How many days can I work remotely\?/);
  assert.match(await page.locator('.msg-assistant .msg-body').innerText(), /three days a week/);
  assert.equal(
    await page.locator('.msg-assistant button.cite').first().getAttribute('aria-label'),
    'Source 1: Remote work',
  );

  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('.msg').length === 0);
  await page.goto(`${c.s.base}/chat/${id}`);
  await page.locator('.msg-assistant').waitFor();
  assert.match(await page.locator('.msg-assistant .msg-body').innerText(), /three days a week/);

  const remove = page.locator(`#chat-history-list li:has(a[data-id="${id}"]) button`);
  await remove.click();
  assert.equal(await remove.textContent(), 'Really delete?', 'asks once more');
  await remove.click();
  await link.waitFor({ state: 'detached' });
  await page.waitForURL((u) => u.pathname === '/chat');
  const res = await page.request.get(`${c.s.base}/api/conversations/${id}`);
  assert.equal(res.status(), 404);
  await close();
});

test('Copy puts the answer text on the clipboard', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.s.base });
  await ask(page, 'How are train tickets reimbursed?');
  const text = await answered(page);
  await page.click('.msg-assistant .msg-actions button:text("Copy")');
  await page.locator('#chat-status', { hasText: 'copied' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /reimbursed within 30 days\. \[\d\]/);
  assert.ok(text.includes('reimbursed within 30 days'));
  await close();
});

test('German by default (labels and answer), English after switching', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'de-DE' });
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  assert.equal(await page.textContent('#chat-send'), 'Senden');
  assert.equal(await page.inputValue('#chat-language'), 'de');
  await ask(page, 'Züge');
  assert.match(await answered(page), /Ich bin das eingebaute extraktive Modell/);
  await Promise.all([page.waitForLoadState('load'), page.click('.lang-switch button[value=en]')]);
  await page.waitForFunction(() => document.documentElement?.lang === 'en');
  assert.equal(await page.textContent('#chat-send'), 'Send');
  assert.equal(await page.inputValue('#chat-language'), 'en');
  await close();
});
