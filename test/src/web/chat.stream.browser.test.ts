/**
 * The chat page in Chromium against a fake OpenAI-compatible upstream (a
 * hosted LLM cannot run here) for controlled streams: text painted while the
 * stream is still open, Stop, Regenerate, New chat, an upstream failure, the
 * Markdown subset, and markup in answers and in cited document titles shown
 * as text (no dialog opens).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import {
  answered,
  ask,
  chatServer,
  conversationId,
  openChat,
  startFakeUpstream,
  type ChatServer,
  type FakeUpstream,
} from './chat-kit.ts';

let c: ChatServer;
let up: FakeUpstream;
let browser: Browser;

before(async () => {
  up = await startFakeUpstream();
  c = await chatServer({ upstream: up.url });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await c?.s.close();
  await up?.close();
});
afterEach(() => {
  up.script = [];
});

const savedContents = async (id: string) => {
  const res = await c.s.call('GET', `/api/conversations/${id}`, c.ada.key);
  return res.body.messages.map((m: { content: string }) => m.content);
};

test('text is painted while the stream is open; Stop ends it and keeps what came, which is saved', async () => {
  up.script = [{ content: ['The first part ', 'of the answer'], hang: true }];
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await ask(page, 'Tell me a long story');
  await page.locator('.msg-assistant .msg-body', { hasText: 'The first part of the answer' }).waitFor();
  assert.equal(await page.isVisible('#chat-stop'), true, 'Stop is offered while the answer streams');
  assert.equal(await page.isVisible('#chat-send'), false);
  await page.click('#chat-stop');
  await page.locator('.msg-assistant .msg-note', { hasText: 'Stopped.' }).waitFor();
  assert.equal(await page.isVisible('#chat-send'), true);
  const id = await conversationId(page);
  assert.deepEqual(await savedContents(id), ['Tell me a long story', 'The first part of the answer']);
  for (let i = 0; i < 100 && up.disconnects === 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(up.disconnects, 1, 'stopping aborted the upstream call');
  await close();
});

test('Regenerate replaces the last answer, on the page and in the saved conversation', async () => {
  up.script = [{ content: ['Answer one.'] }, { content: ['Answer two.'] }];
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await ask(page, 'Which answer?');
  assert.equal(await answered(page), 'Answer one.');
  const id = await conversationId(page);
  await page.click('.msg-assistant button:text("Regenerate")');
  await page.locator('.msg-assistant .msg-body', { hasText: 'Answer two.' }).waitFor();
  await answered(page);
  assert.equal(await page.locator('.msg-assistant').count(), 1);
  for (let i = 0; i < 100 && (await savedContents(id))[1] !== 'Answer two.'; i++)
    await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(await savedContents(id), ['Which answer?', 'Answer two.']);
  // The second request carried the same conversation (the question, no old answer).
  assert.deepEqual(
    up.requests.at(-1).messages.filter((m: { role: string }) => m.role !== 'system'),
    [{ role: 'user', content: 'Which answer?' }],
  );
  await close();
});

test('New chat empties the page; the next question starts a second conversation', async () => {
  up.script = [{ content: ['One.'] }, { content: ['Two.'] }];
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await ask(page, 'First question');
  await answered(page);
  const first = await conversationId(page);
  await page.click('#chat-new');
  await page.waitForURL((u) => u.pathname === '/chat');
  assert.equal(await page.locator('.msg').count(), 0);
  await ask(page, 'Second question');
  await answered(page);
  await page.waitForURL((u) => u.pathname !== `/chat/${first}` && u.pathname.startsWith('/chat/conv_'));
  const second = await conversationId(page);
  assert.notEqual(second, first);
  assert.equal(up.requests.at(-1).messages.filter((m: { role: string }) => m.role === 'user').length, 1);
  await page.locator(`#chat-history-list a[data-id="${first}"]`).waitFor();
  await page.locator(`#chat-history-list a[data-id="${second}"]`).waitFor();
  await close();
});

test('an upstream failure is shown as an error with Regenerate, which then succeeds', async () => {
  up.script = [{ status: 500 }, { content: ['Recovered.'] }];
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await ask(page, 'Will this fail?');
  const alert = page.locator('.msg-assistant .msg-note[role=alert]');
  await alert.waitFor();
  assert.match(await alert.innerText(), /^The answer failed: /);
  await page.click('.msg-assistant button:text("Regenerate")');
  assert.equal(await answered(page), 'Recovered.');
  assert.equal(await page.locator('.msg-assistant').count(), 1);
  await close();
});

test('the Markdown subset becomes elements; markup in the answer and the question stays text and runs nothing', async () => {
  const answer =
    '**Bold** and `code` [link](https://example.com/a)\n\n- one\n- two\n\n1. first\n2. second\n\n```\n<b>not bold</b>\n```\n\n' +
    '<img src=x onerror="alert(1)"> <script>alert(2)</script> [evil](javascript:alert(3))';
  up.script = [{ content: answer.match(/.{1,7}/gs)! }];
  const { page, dialogs, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  const question = 'Format <img src=x onerror="alert(4)"> something';
  await ask(page, question);
  await answered(page);
  assert.equal(await page.locator('.msg-user .msg-body').textContent(), question);
  const id = await conversationId(page);
  assert.equal(await page.locator(`#chat-history-list a[data-id="${id}"]`).textContent(), question);
  const body = page.locator('.msg-assistant .msg-body');
  assert.equal(await body.locator('strong').textContent(), 'Bold');
  assert.equal(await body.locator('p code').textContent(), 'code');
  assert.equal(await body.locator('a[href="https://example.com/a"]').textContent(), 'link');
  assert.equal(await body.locator('ul > li').count(), 2);
  assert.equal(await body.locator('ol > li').count(), 2);
  assert.equal(await body.locator('pre code').textContent(), '<b>not bold</b>');
  assert.equal(await body.locator('img, script, b, a[href^="javascript"]').count(), 0);
  assert.match(await body.innerText(), /<img src=x onerror="alert\(1\)"> <script>alert\(2\)<\/script>/);
  assert.deepEqual(dialogs, []);
  await close();
});

test('a cited document whose title and address carry markup shows them as text', async () => {
  const payload = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
  await c.index([
    { id: 'xss', title: payload, path_preview: 'javascript:alert(3)', text: 'The payload handbook page.' },
  ]);
  up.script = [
    { toolCalls: [{ name: 'serviceSearch', arguments: '{"query":"payload handbook"}' }] },
    { content: ['See ', '[1].'] },
  ];
  const { page, dialogs, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await ask(page, 'What is on the payload page?');
  await answered(page);
  const chip = page.locator('.msg-assistant button.cite');
  assert.equal(await chip.getAttribute('aria-label'), `Source 1: ${payload}`);
  await chip.click();
  const item = page.locator('#chat-sources li[aria-current=true]');
  assert.equal(await item.locator('.chat-source-title').textContent(), payload);
  assert.equal(await item.locator('a').count(), 0, 'a javascript: address is not a link');
  assert.equal(await page.locator('main img, main script').count(), 0);
  assert.deepEqual(dialogs, []);
  await close();
});
