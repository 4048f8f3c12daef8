/**
 * The chat's serviceSearch tool searches under the same budgets as GET /api/beta/search: a
 * query over a limit of its planned cost finds nothing (the model is told so), and the refusal
 * is logged with the chat request's id.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createLogger } from '../../../src/log.ts';
import { chatHarness, startFakeUpstream, textDoc, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
const lines: Record<string, unknown>[] = [];

before(async () => {
  up = await startFakeUpstream();
  h = await chatHarness({
    upstream: up.url,
    // two words fit, a long question of common words does not
    env: { SEARCH_MAX_CLAUSES: '3' },
    services: { log: createLogger('info', (line) => lines.push(JSON.parse(line))) },
  });
  await h.index(
    'handbook',
    ['alice@example.com'],
    [textDoc('travel', 'Travel policy', 'Employees book trains for trips under 500 km.')],
  );
});
after(async () => {
  await h.close();
  await up.close();
});

const tools = [{ type: 'function' as const, function: { name: 'serviceSearch' } }];
const call = (query: string) => ({ name: 'serviceSearch', arguments: JSON.stringify({ query }) });
const toolText = (req: any): string => req.messages.find((m: { role: string }) => m.role === 'tool').content;

it('a serviceSearch call within the limits finds the document', async () => {
  up.script = [{ toolCalls: [call('trains trips')] }, { content: ['ok'] }];
  const client = await h.client('alice@example.com');
  await client.chat.completions.create({
    model: 'fake-model',
    messages: [{ role: 'user', content: 'trains?' }],
    tools,
  });
  assert.match(toolText(up.requests.at(-1)), /Travel policy/);
});

it('a serviceSearch call over a limit finds nothing and is logged with the request id', async () => {
  up.script = [{ toolCalls: [call('trains trips employees book')] }, { content: ['ok'] }];
  const res = await h.fetch('/api/beta/serviceai/chat/completions', {
    method: 'POST',
    key: await h.personal('alice@example.com'),
    headers: { 'x-request-id': 'chat-budget-1' },
    body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'trains?' }], tools }),
  });
  assert.equal(res.status, 200);
  assert.match(toolText(up.requests.at(-1)), /No internal documents match/);
  const refused = lines.find((l) => l.requestId === 'chat-budget-1' && /search refused/.test(String(l.msg)));
  assert.equal(refused?.limit, 'SEARCH_MAX_CLAUSES');
});
