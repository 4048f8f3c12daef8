/**
 * Saved conversations over HTTP (/api/conversations): the owner lists, reads,
 * appends, replaces the last answer, renames and deletes; another account
 * gets 404 for everything; bad bodies get 422 items; limits answer 409;
 * a browser session needs the CSRF header for changes; everything survives a
 * restart, and a torn tail left by a crash is cut off at start.
 */
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { MAX_CONVERSATIONS, MAX_MESSAGES } from '../../../src/conversations/schema.ts';
import { ConversationStore, conversationsDir } from '../../../src/conversations/store.ts';
import { silentLogger } from '../../../src/log.ts';
import { openState } from '../../../src/open-state.ts';
import type { StateStore } from '../../../src/state/store.ts';

const MASTER = 'master-key-for-tests-0123456789';
let dir: string;

async function server() {
  const config = loadConfig({ ADMIN_KEY: MASTER, DATA_DIR: dir });
  const state: StateStore = await openState(config, silentLogger);
  const conversations = new ConversationStore({ dir: conversationsDir(dir), log: silentLogger, now: () => Date.now() });
  const app = createApp({ config, log: silentLogger, state, now: () => Date.now(), conversations });
  async function call(method: string, path: string, key: string | null, body?: unknown, headers = {}) {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
    if (key) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await app.request(path, init);
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
  }
  return {
    call,
    async close() {
      await conversations.close();
      await state.close();
    },
  };
}

let s: Awaited<ReturnType<typeof server>>;
let alice: string;
let bob: string;

async function personalKey(email: string): Promise<string> {
  assert.equal((await s.call('POST', '/api/admin/accounts', MASTER, { email })).status, 200);
  const key = await s.call('POST', `/api/admin/accounts/${email}/keys`, MASTER, {});
  return key.body.key;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conversations-'));
  s = await server();
  alice = await personalKey('alice@example.com');
  bob = await personalKey('bob@example.com');
});
after(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

const user = (content: string) => ({ role: 'user', content });
const answer = (content: string) => ({
  role: 'assistant',
  content,
  citations: [
    { number: 1, id: 'travel', title: 'Travel policy', path_preview: 'https://wiki/travel', datasource: 'wiki' },
  ],
});

test('the owner creates, appends, lists, reads, renames and deletes a conversation', async () => {
  const created = await s.call('POST', '/api/conversations', alice, { title: 'Trips', messages: [user('Trains?')] });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  assert.match(id, /^conv_[0-9a-f]{24}$/);
  assert.equal(created.body.message_count, 1);

  const appended = await s.call('POST', `/api/conversations/${id}/messages`, alice, {
    messages: [answer('Book trains [1].')],
  });
  assert.equal(appended.status, 200);
  assert.equal(appended.body.message_count, 2);

  const got = await s.call('GET', `/api/conversations/${id}`, alice);
  assert.equal(got.status, 200);
  assert.deepEqual(
    got.body.messages.map((m: any) => [m.role, m.content]),
    [
      ['user', 'Trains?'],
      ['assistant', 'Book trains [1].'],
    ],
  );
  assert.equal(got.body.messages[1].citations[0].title, 'Travel policy');
  assert.ok(Date.parse(got.body.messages[1].created_at) > 0);

  const renamed = await s.call('PATCH', `/api/conversations/${id}`, alice, { title: '  Train travel  ' });
  assert.equal(renamed.body.title, 'Train travel');
  const list = await s.call('GET', '/api/conversations', alice);
  assert.equal(list.status, 200);
  assert.ok(list.body.conversations.some((c: any) => c.id === id && c.title === 'Train travel'));

  assert.deepEqual((await s.call('DELETE', `/api/conversations/${id}`, alice)).body, { id, deleted: true });
  assert.equal((await s.call('GET', `/api/conversations/${id}`, alice)).status, 404);
  const after = await s.call('GET', '/api/conversations', alice);
  assert.ok(!after.body.conversations.some((c: any) => c.id === id));
});

test('regenerating replaces the last answer (replace_from); a position past the end is 409', async () => {
  const { body } = await s.call('POST', '/api/conversations', alice, { messages: [user('Q'), answer('first')] });
  const replaced = await s.call('POST', `/api/conversations/${body.id}/messages`, alice, {
    messages: [answer('second')],
    replace_from: 1,
  });
  assert.equal(replaced.body.message_count, 2);
  const got = await s.call('GET', `/api/conversations/${body.id}`, alice);
  assert.deepEqual(
    got.body.messages.map((m: any) => m.content),
    ['Q', 'second'],
  );
  const past = await s.call('POST', `/api/conversations/${body.id}/messages`, alice, {
    messages: [answer('x')],
    replace_from: 5,
  });
  assert.equal(past.status, 409);
  assert.match(past.body.detail, /replace_from/);
});

test("another account gets 404 for every operation on someone else's conversation, and sees none in its list", async () => {
  const { body } = await s.call('POST', '/api/conversations', alice, { title: 'private', messages: [user('secret')] });
  const path = `/api/conversations/${body.id}`;
  for (const [method, p, b] of [
    ['GET', path, undefined],
    ['PATCH', path, { title: 'mine now' }],
    ['POST', `${path}/messages`, { messages: [user('hi')] }],
    ['DELETE', path, undefined],
  ] as const) {
    const res = await s.call(method, p, bob, b);
    assert.equal(res.status, 404, `${method} ${p}`);
    assert.equal(typeof res.body.detail, 'string');
  }
  assert.deepEqual((await s.call('GET', '/api/conversations', bob)).body, { conversations: [] });
  assert.equal((await s.call('GET', path, alice)).body.title, 'private');
});

test('keys: none is 401, the master key (not a personal key) is 403', async () => {
  assert.equal((await s.call('GET', '/api/conversations', null)).status, 401);
  assert.equal((await s.call('GET', '/api/conversations', MASTER)).status, 403);
});

test('bad bodies get 422 items in the validation envelope', async () => {
  const cases: [unknown, string, (string | number)[]][] = [
    [{ messages: [{ role: 'system', content: 'x' }] }, 'literal_error', ['body', 'messages', 0, 'role']],
    [{ messages: [{ role: 'user' }] }, 'missing', ['body', 'messages', 0, 'content']],
    [{ title: 'x'.repeat(201) }, 'string_too_long', ['body', 'title']],
    [{ color: 'red' }, 'extra_forbidden', ['body', 'color']],
    ['{not json', 'json_invalid', ['body', 1]],
    [{ messages: [user('x'.repeat(100_001))] }, 'string_too_long', ['body', 'messages', 0, 'content']],
  ];
  for (const [body, type, loc] of cases) {
    const res = await s.call('POST', '/api/conversations', alice, body);
    assert.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
    assert.equal(res.body.detail[0].type, type);
    assert.deepEqual(res.body.detail[0].loc, loc);
  }
  const { body } = await s.call('POST', '/api/conversations', alice, {});
  const empty = await s.call('POST', `/api/conversations/${body.id}/messages`, alice, { messages: [] });
  assert.equal(empty.status, 422);
  assert.equal(empty.body.detail[0].type, 'too_short');
  const negative = await s.call('POST', `/api/conversations/${body.id}/messages`, alice, {
    messages: [user('x')],
    replace_from: -1,
  });
  assert.equal(negative.status, 422);
});

test(`limits: ${MAX_MESSAGES} messages per conversation and ${MAX_CONVERSATIONS} conversations per account, then 409`, async () => {
  const key = await personalKey('carol@example.com');
  const { body } = await s.call('POST', '/api/conversations', key, {
    messages: Array.from({ length: MAX_MESSAGES - 1 }, (_, i) => user(`m${i}`)),
  });
  assert.equal(body.message_count, MAX_MESSAGES - 1);
  const two = await s.call('POST', `/api/conversations/${body.id}/messages`, key, { messages: [user('a'), user('b')] });
  assert.equal(two.status, 409);
  assert.match(two.body.detail, new RegExp(`at most ${MAX_MESSAGES} messages`));
  const one = await s.call('POST', `/api/conversations/${body.id}/messages`, key, { messages: [user('a')] });
  assert.equal(one.status, 200);
  for (let i = 1; i < MAX_CONVERSATIONS; i++)
    assert.equal((await s.call('POST', '/api/conversations', key, {})).status, 201);
  const over = await s.call('POST', '/api/conversations', key, {});
  assert.equal(over.status, 409);
  assert.match(over.body.detail, new RegExp(`at most ${MAX_CONVERSATIONS} conversations`));
  assert.equal((await s.call('GET', '/api/conversations', key)).body.conversations.length, MAX_CONVERSATIONS);
});

test('everything acknowledged survives a restart; a torn tail from a crash is cut off at start', async () => {
  const { body } = await s.call('POST', '/api/conversations', alice, { title: 'durable', messages: [user('one')] });
  await s.call('POST', `/api/conversations/${body.id}/messages`, alice, { messages: [answer('two')] });
  await s.close();
  const files = await readdir(conversationsDir(dir));
  assert.equal(files.length, 2, 'one file per account that saved something');
  // A crash mid-write leaves part of a frame at the end of the file.
  const file = join(conversationsDir(dir), files[0]);
  const before = (await stat(file)).size;
  await appendFile(file, new Uint8Array([200, 0, 0, 0, 1, 2, 3]));
  const file2 = join(conversationsDir(dir), files[1]);
  await appendFile(file2, new Uint8Array([200, 0, 0, 0, 1, 2, 3]));

  s = await server();
  const got = await s.call('GET', `/api/conversations/${body.id}`, alice);
  assert.equal(got.status, 200);
  assert.equal(got.body.title, 'durable');
  assert.deepEqual(
    got.body.messages.map((m: any) => m.content),
    ['one', 'two'],
  );
  // Appends continue after the last good record.
  const more = await s.call('POST', `/api/conversations/${body.id}/messages`, alice, { messages: [user('three')] });
  assert.equal(more.body.message_count, 3);
  assert.ok((await stat(file)).size >= before);
  await s.close();
  s = await server();
  const again = await s.call('GET', `/api/conversations/${body.id}`, alice);
  assert.deepEqual(
    again.body.messages.map((m: any) => m.content),
    ['one', 'two', 'three'],
  );
});
