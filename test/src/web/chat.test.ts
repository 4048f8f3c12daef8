/**
 * The chat page over HTTP against the real server: sign-in first, the
 * server-rendered options (models of the catalogue, agents, the web search
 * note), a conversation address opens only for its owner (404 otherwise),
 * and the saved-conversations API with the browser session: reads with the
 * cookie, changes only with the X-CSRF-Token header.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { HttpBrowser, webServer, type Person, type WebServer } from '../../support/web.ts';

let s: WebServer;
let ada: Person;
let bob: Person;

before(async () => {
  s = await webServer();
  ada = await s.person('ada@example.com');
  bob = await s.person('bob@example.com');
});
after(() => s.close());

async function signedIn(p: Person): Promise<HttpBrowser> {
  const b = new HttpBrowser(s.base);
  assert.equal((await b.signIn(p.email, p.password, '/chat')).status, 303);
  return b;
}

const csrf = (html: string) => /<meta name="csrf-token" content="([^"]+)"/.exec(html)![1];

test('the chat page asks who you are first, and keeps the conversation address', async () => {
  const res = await new HttpBrowser(s.base).request('/chat/conv_0123456789abcdef01234567');
  assert.equal(res.status, 303);
  assert.equal(
    res.headers.get('location'),
    `/signin?next=${encodeURIComponent('/chat/conv_0123456789abcdef01234567')}`,
  );
});

test('the page offers the catalogue models, the agents, and says that web search is not configured', async () => {
  const agent = await s.call('POST', '/api/admin/agents', MASTER, { name: 'Travel <desk>' });
  const b = await signedIn(ada);
  const page = await b.request('/chat');
  assert.equal(page.status, 200);
  assert.match(page.text, /<option value="extractive" selected="">extractive \(eingebaut: zitiert die Quellen\)/);
  assert.match(page.text, new RegExp(`<option value="${agent.body.id}">Travel &lt;desk&gt;</option>`));
  assert.match(page.text, /id="chat-web-off">Die Websuche ist auf diesem Server nicht eingerichtet\./);
  assert.doesNotMatch(page.text, /id="chat-web"/);
  assert.match(page.text, /"conversationId":null/);
});

test("a conversation address opens for its owner only; another account's and unknown ones are 404", async () => {
  const created = await s.call('POST', '/api/conversations', ada.key, { title: 'Mine' });
  const id = created.body.id as string;
  const mine = await (await signedIn(ada)).request(`/chat/${id}`);
  assert.equal(mine.status, 200);
  assert.match(mine.text, new RegExp(`"conversationId":"${id}"`));
  const theirs = await signedIn(bob);
  for (const path of [`/chat/${id}`, '/chat/conv_0123456789abcdef01234567', '/chat/not-an-id']) {
    const res = await theirs.request(path);
    assert.equal(res.status, 404, path);
    assert.match(res.text, /Diese Unterhaltung gibt es nicht/);
  }
});

test('the conversations API takes the session: reads with the cookie, changes only with the CSRF header', async () => {
  const b = await signedIn(ada);
  const token = csrf((await b.request('/chat')).text);
  const json = { 'content-type': 'application/json' };
  const list = await b.request('/api/conversations');
  assert.equal(list.status, 200);
  const body = JSON.stringify({ title: 'From the page' });
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const without = await fetch(`${s.base}/api/conversations`, { method: 'POST', headers: { ...json, cookie }, body });
  assert.equal(without.status, 403);
  const wrong = await fetch(`${s.base}/api/conversations`, {
    method: 'POST',
    headers: { ...json, cookie, 'x-csrf-token': 'nope' },
    body,
  });
  assert.equal(wrong.status, 403);
  const ok = await fetch(`${s.base}/api/conversations`, {
    method: 'POST',
    headers: { ...json, cookie, 'x-csrf-token': token },
    body,
  });
  assert.equal(ok.status, 201);
  const id = ((await ok.json()) as { id: string }).id;
  const viaKey = await s.call('GET', `/api/conversations/${id}`, ada.key);
  assert.equal(viaKey.body.title, 'From the page', 'the same account through its personal key');
});
