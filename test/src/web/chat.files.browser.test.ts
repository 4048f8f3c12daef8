/**
 * Attaching files on the chat page in Chromium (the built-in extractive
 * model): a file from the picker is uploaded and the answer quotes it, a file
 * dropped on the composer is attached the same way, and a file name carrying
 * markup shows as text everywhere (no dialog opens).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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

const PARKING = 'Visitors park in the east car park. The barrier opens with the code from the reception desk.';

/** Drop a text file on the composer the way a browser does (dragover, then drop with a DataTransfer). */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ({ name, text }) => {
      const form = document.getElementById('chat-composer')!;
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: 'text/plain' }));
      form.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      form.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { name, text },
  );
}

test('a file attached with the picker is uploaded, sent with the question, quoted and cited', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await page.setInputFiles('#chat-file', { name: 'parking.txt', mimeType: 'text/plain', buffer: Buffer.from(PARKING) });
  await page.locator('#chat-attachments li.ready', { hasText: 'parking.txt' }).waitFor();
  await ask(page, 'Where do visitors park?');
  const text = await answered(page);
  assert.match(text, /Visitors park in the east car park\./);
  assert.equal(await page.locator('#chat-attachments li').count(), 0, 'the attachment went with the message');
  assert.equal(await page.locator('.msg-user .msg-files li').textContent(), 'parking.txt');
  await page.locator('.msg-assistant button.cite').first().click();
  const source = page.locator('#chat-sources li[aria-current=true]');
  assert.equal(await source.locator('.chat-source-title').textContent(), 'parking.txt');
  assert.equal(await source.locator('.chat-source-meta').textContent(), 'Attached file');

  // The file stays with the conversation: a follow-up question still finds it, also after reopening.
  const id = await conversationId(page);
  await page.goto(`${c.s.base}/chat/${id}`);
  await page.locator('.msg-user .msg-files li', { hasText: 'parking.txt' }).waitFor();
  await ask(page, 'What opens the barrier?');
  assert.match(await answered(page, 2), /barrier opens with the code/);
  await close();
});

test('a file dropped on the composer is attached', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await dropFile(page, 'canteen.txt', 'The canteen serves lunch from 11:30 to 14:00.');
  await page.locator('#chat-attachments li.ready', { hasText: 'canteen.txt' }).waitFor();
  await ask(page, 'When is lunch served?');
  assert.match(await answered(page), /lunch from 11:30 to 14:00/);
  await close();
});

test('a file name with markup shows as text in the attachment, the message and the sources', async () => {
  const name = '"><img src=x onerror=alert(1)><script>alert(2)</script>.txt';
  const { page, dialogs, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await dropFile(page, name, 'The shuttle bus leaves every twenty minutes.');
  const chip = page.locator('#chat-attachments li.ready');
  await chip.waitFor();
  assert.equal(await chip.locator('.chat-attachment-name').textContent(), name);
  await ask(page, 'How often does the shuttle bus leave?');
  await answered(page);
  assert.equal(await page.locator('.msg-user .msg-files li').textContent(), name);
  await page.locator('.msg-assistant button.cite').first().click();
  assert.equal(await page.locator('#chat-sources li[aria-current=true] .chat-source-title').textContent(), name);
  assert.equal(await page.locator('main img, main script').count(), 0);
  assert.deepEqual(dialogs, []);
  await close();
});

test('an attachment can be removed before sending, and a file that cannot be read says why', async () => {
  const { page, close } = await openChat(browser, c.s, c.ada, { locale: 'en-US' });
  await page.setInputFiles('#chat-file', [
    { name: 'keep.txt', mimeType: 'text/plain', buffer: Buffer.from('Keep me.') },
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 not really a pdf') },
  ]);
  await page.locator('#chat-attachments li.ready', { hasText: 'keep.txt' }).waitFor();
  const broken = page.locator('#chat-attachments li.failed', { hasText: 'broken.pdf' });
  await broken.waitFor();
  assert.match(await broken.locator('[role=alert]').innerText(), /broken\.pdf could not be attached: /);
  await page.click('#chat-attachments button[aria-label="Remove keep.txt"]');
  assert.equal(await page.locator('#chat-attachments li', { hasText: 'keep.txt' }).count(), 0);
  await close();
});
