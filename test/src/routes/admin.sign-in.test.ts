/**
 * Admin API for browser sign-in: setting passwords, issuing sign-in links, listing and ending
 * sessions. Only administrators; no privilege escalation; a password is never echoed, also not
 * in a 422; link URLs use PUBLIC_URL when set.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { HttpBrowser, webServer, type WebServer } from '../../support/web.ts';

let s: WebServer;

before(async () => {
  s = await webServer({ env: { PUBLIC_URL: 'https://search.example.com/' } });
});
after(() => s.close());

const path = (email: string, rest: string) => `/api/admin/accounts/${encodeURIComponent(email)}/${rest}`;

test('a weak password is a 422 at body.password that does not echo the password', async () => {
  await s.call('POST', '/api/admin/accounts', MASTER, { email: 'pat@example.com' });
  const res = await s.call('PUT', path('pat@example.com', 'password'), MASTER, { password: 'tiny-pw' });
  assert.equal(res.status, 422);
  assert.deepEqual(res.body.detail[0].loc, ['body', 'password']);
  assert.equal(res.body.detail[0].input, '**********');
  assert.doesNotMatch(JSON.stringify(res.body), /tiny-pw/);
  assert.equal((await s.call('PUT', path('pat@example.com', 'password'), MASTER, {})).status, 422);
  assert.equal((await s.call('PUT', path('pat@example.com', 'password'), MASTER)).status, 422);
  const unknown = await s.call('PUT', path('nobody@example.com', 'password'), MASTER, {
    password: 'long enough password',
  });
  assert.equal(unknown.status, 404);
});

test('sign-in links use PUBLIC_URL and are answered once', async () => {
  const res = await s.call('POST', path('pat@example.com', 'sign-in-links'), MASTER, {});
  assert.equal(res.status, 200);
  assert.match(res.body.url, /^https:\/\/search\.example\.com\/signin\/link\/sil_[A-Za-z0-9_-]{43}$/);
  const accounts = await s.call('GET', '/api/admin/accounts', MASTER);
  assert.doesNotMatch(JSON.stringify(accounts.body), /sil_|scrypt|password_hash/);
});

test('only administrators, and only for accounts whose roles they hold', async () => {
  const admin = await s.person('root@example.com', { roles: ['administrator'] });
  await s.person('dev@example.com', { roles: ['developer'] });
  const plain = await s.person('plain@example.com');
  const set = (key: string, email: string) =>
    s.call('PUT', path(email, 'password'), key, { password: 'a fine long password' });
  assert.equal((await set(plain.key, 'pat@example.com')).status, 403, 'not an administrator');
  assert.equal((await set(admin.key, 'dev@example.com')).status, 403, 'a developer account needs the developer role');
  assert.equal((await set(admin.key, 'pat@example.com')).status, 200);
  const link = await s.call('POST', path('dev@example.com', 'sign-in-links'), admin.key, {});
  assert.equal(link.status, 403);
  assert.equal((await s.call('DELETE', path('dev@example.com', 'sessions'), admin.key)).status, 403);
});

test('sessions are listed without secrets and can be ended', async () => {
  const p = await s.person('quinn@example.com');
  const b = new HttpBrowser(s.base);
  await b.signIn(p.email, p.password);
  await b.signIn(p.email, p.password);
  const list = await s.call('GET', path(p.email, 'sessions'), MASTER);
  assert.equal(list.status, 200);
  assert.equal(list.body.sessions.length, 2);
  assert.deepEqual(Object.keys(list.body.sessions[0]).sort(), [
    'address',
    'created_at',
    'expires_at',
    'id',
    'method',
    'seen_at',
    'user_agent',
  ]);
  assert.equal(list.body.sessions[0].method, 'password');
  const token = b.cookies.get('es_session')!;
  assert.doesNotMatch(JSON.stringify(list.body), new RegExp(token));
  const ended = await s.call('DELETE', path(p.email, 'sessions'), MASTER);
  assert.deepEqual(ended.body, { email: p.email, ended: 2 });
  assert.deepEqual((await s.call('GET', path(p.email, 'sessions'), MASTER)).body, { sessions: [] });
});
