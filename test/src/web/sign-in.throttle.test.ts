/**
 * Sign-in throttling over HTTP: per account (the email typed) and per client address; past the
 * limit the right password is refused too (429 with Retry-After) until the window passes, and
 * the password is not even checked.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpBrowser, webServer, type WebServer } from '../../support/web.ts';

let s: WebServer;
let clock = Date.parse('2026-06-01T08:00:00.000Z');

before(async () => {
  s = await webServer({ now: () => clock });
});
after(() => s.close());

test('five failures for one account lock it for fifteen minutes, even with the right password', async () => {
  const p = await s.person('ivy@example.com');
  const b = new HttpBrowser(s.base);
  for (let i = 0; i < 5; i++) assert.equal((await b.signIn(p.email, `wrong password ${i}`)).status, 401);
  const locked = await b.signIn(p.email, p.password);
  assert.equal(locked.status, 429);
  assert.equal(locked.headers.get('retry-after'), String(15 * 60));
  assert.match(locked.text, /15 Minuten/);
  assert.equal(b.cookies.has('es_session'), false);
  clock += 15 * 60_000 + 1;
  assert.equal((await b.signIn(p.email, p.password)).status, 303, 'the window has passed');
});

test('a success clears the account count', async () => {
  const p = await s.person('jack@example.com');
  const b = new HttpBrowser(s.base);
  for (let i = 0; i < 4; i++) await b.signIn(p.email, `wrong password ${i}`);
  assert.equal((await b.signIn(p.email, p.password)).status, 303);
  for (let i = 0; i < 4; i++) assert.equal((await b.signIn(p.email, `wrong password ${i}`)).status, 401);
  assert.equal((await b.signIn(p.email, p.password)).status, 303);
});

test('one address guessing many accounts is throttled after twenty failures', async () => {
  clock += 60 * 60_000;
  const p = await s.person('kim@example.com');
  const b = new HttpBrowser(s.base);
  for (let i = 0; i < 20; i++)
    assert.equal((await b.signIn(`nobody${i}@example.com`, 'some password 123')).status, 401);
  const res = await b.signIn(p.email, p.password);
  assert.equal(res.status, 429, 'the address is throttled for every account');
});
