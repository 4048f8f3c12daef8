/**
 * Shared setup of the chat page tests: the real server (webServer) with a
 * handbook datasource of real indexed documents and a signed-in person, an
 * optional fake OpenAI-compatible upstream (a hosted LLM cannot run here),
 * and page helpers: open the chat signed in (collecting any `dialog`, which
 * an XSS payload would open), ask, and wait for an answer to complete.
 */
import type { Browser, Page } from 'playwright-core';
import { newContext, signIn } from '../../support/browser.ts';
import { webServer, type Person, type WebServer } from '../../support/web.ts';

export { startFakeUpstream, type FakeUpstream } from '../../support/fake-llm.ts';

export const HANDBOOK = [
  {
    id: 'travel-policy',
    title: 'Travel policy',
    path_preview: 'https://intranet.example.com/handbook/travel',
    text: 'Employees book trains for trips under 500 km. Flights need the approval of the team lead. Book through the travel portal at least two weeks ahead.',
  },
  {
    id: 'expense-claims',
    title: 'Expense claims',
    path_preview: 'https://intranet.example.com/handbook/expenses',
    text: 'Train tickets and hotel costs are reimbursed within 30 days. Submit the receipts in the expense tool within one month of the trip.',
  },
  {
    id: 'remote-work',
    title: 'Remote work',
    path_preview: 'https://intranet.example.com/handbook/remote',
    text: 'Employees may work remotely up to three days a week. Agree on the days with your team.',
  },
];

export interface ChatServer {
  s: WebServer;
  ada: Person;
  /** Push documents into the handbook datasource and commit. */
  index(docs: { id: string; title: string; text: string; path_preview?: string }[]): Promise<void>;
}

export async function chatServer(opts: { upstream?: string; env?: Record<string, string> } = {}): Promise<ChatServer> {
  const env: Record<string, string> = { ...opts.env };
  if (opts.upstream) Object.assign(env, { LLM_BASE_URL: opts.upstream, LLM_MODELS: 'fake-model' });
  const s = await webServer({ env });
  await s.api('POST', '/datasources', { name: 'handbook', display_name: 'Handbook' });
  const ada = await s.person('ada@example.com', { name: 'Ada Lovelace', datasources: ['handbook'] });
  async function index(docs: { id: string; title: string; text: string; path_preview?: string }[]) {
    const documents = docs.map((d) => ({
      datasource: 'handbook',
      id: d.id,
      title: d.title,
      path_preview: d.path_preview,
      file_type: 'wiki',
      last_modified: '2026-03-02T09:00:00Z',
      body: { mime_type: 'text/plain', text_content: d.text },
    }));
    const res = await s.api('POST', '/documents', { documents });
    if (res.status !== 200) throw new Error(`push: ${JSON.stringify(res.body)}`);
    await s.commit();
  }
  await index(HANDBOOK);
  return { s, ada, index };
}

export interface ChatPage {
  page: Page;
  /** Messages of every dialog the page opened (an XSS payload that ran would open one). */
  dialogs: string[];
  close(): Promise<void>;
}

export async function openChat(
  browser: Browser,
  s: WebServer,
  person: Person,
  opts: Parameters<typeof newContext>[1] & { path?: string } = {},
): Promise<ChatPage> {
  const context = await newContext(browser, opts);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, s.base, person.email, person.password, opts.path ?? '/chat');
  await page.waitForSelector('#chat-prompt');
  return { page, dialogs, close: () => context.close() };
}

/** Type a question and press Enter. */
export async function ask(page: Page, question: string): Promise<void> {
  await page.fill('#chat-prompt', question);
  await page.press('#chat-prompt', 'Enter');
}

/** Wait until `count` answers are complete (their actions shown); resolves with the last one's text. */
export async function answered(page: Page, count = 1): Promise<string> {
  await page.waitForFunction(
    (n) => document.querySelectorAll('.msg-assistant .msg-actions:not([hidden])').length >= n,
    count,
  );
  return page
    .locator('.msg-assistant .msg-body')
    .nth(count - 1)
    .innerText();
}

/** The id of the conversation in the address (after the first answer is saved). */
export async function conversationId(page: Page): Promise<string> {
  await page.waitForURL(/\/chat\/conv_[0-9a-f]{24}$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}
