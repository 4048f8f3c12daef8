/**
 * The README's chat screenshot: a conversation with an answer citing real
 * indexed documents (found by the service's own search tool; the wording
 * comes from a fake OpenAI-compatible upstream, standing in for a hosted
 * LLM), the sources panel open and a few past conversations. Written to
 * docs/screenshots/chat.png when UPDATE_SCREENSHOTS=1, else to a temporary
 * directory.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.ts';
import {
  answered,
  ask,
  chatServer,
  openChat,
  startFakeUpstream,
  type ChatServer,
  type FakeUpstream,
} from './chat-kit.ts';

const ANSWER =
  'For trips under 500 km you take the train [1]. Flights need the approval of your team lead, and every ' +
  'booking goes through the travel portal at least two weeks ahead [1].\n\nAfter the trip:\n\n' +
  '- Submit your receipts in the **expense tool** within one month [2].\n' +
  '- Train tickets and hotel costs are reimbursed within 30 days [2].';

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

test('a screenshot of a chat with an answer and its sources', async () => {
  for (const title of ['Onboarding checklist for new hires', 'How much parental leave do I get?'])
    await c.s.call('POST', '/api/conversations', c.ada.key, { title, messages: [{ role: 'user', content: title }] });
  // Two tool rounds (so the sources are numbered in a known order), then the answer, a few characters per event.
  up.script = [
    { toolCalls: [{ name: 'serviceSearch', arguments: '{"query":"flights approval travel portal"}' }] },
    { toolCalls: [{ name: 'serviceSearch', arguments: '{"query":"receipts reimbursed expense tool"}' }] },
    { content: ANSWER.match(/.{1,12}/gs)! },
  ];
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-GB', width: 1280, height: 760 });
  await ask(page, 'How do I book a business trip, and how do I get my costs back?');
  await answered(page);
  const chips = page.locator('.msg-assistant button.cite');
  assert.deepEqual(await chips.evaluateAll((cs) => cs.map((x) => x.getAttribute('aria-label'))), [
    'Source 1: Travel policy',
    'Source 1: Travel policy',
    'Source 2: Expense claims',
    'Source 2: Expense claims',
  ]);
  await chips.first().click();
  await page.locator('#chat-sources').waitFor({ state: 'visible' });
  await page.locator('#chat-history-list li').nth(2).waitFor();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  const dir =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? join(import.meta.dirname, '../../../docs/screenshots')
      : await mkdtemp(join(tmpdir(), 'shots-'));
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'chat.png');
  await page.screenshot({ path: file });
  const png = await readFile(file);
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  if (process.env.UPDATE_SCREENSHOTS !== '1') await rm(dir, { recursive: true, force: true });
  await close();
});
