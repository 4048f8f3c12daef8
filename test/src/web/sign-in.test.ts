/**
 * Sign-in over HTTP, as a browser does it (forms, cookies, redirects), against the real server:
 * cookie flags, the CSRF rule of forms and of the API, wrong passwords, throttling, sign-out,
 * revocation by an administrator, open redirects, and the session used on the public API.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { HttpBrowser, webServer, type WebServer } from '../../support/web.ts';

let s: WebServer;
let clock = Date.parse('2026-06-01T08:00:00.000Z');

before(async () => {
  s = await webServer({ now: () => clock });
  await s.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
});
after(() => s.close());

const sessionCookie = (res: { headers: Headers }) =>
  res.headers.getSetCookie().find((c) => c.startsWith('es_session='));

test('a page asks who you are first, and keeps the address you asked for', async () => {
  const b = new HttpBrowser(s.base);
  const res = await b.request('/?q=travel');
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), `/signin?next=${encodeURIComponent('/?q=travel')}`);
});

test('the right password signs in with an HttpOnly, SameSite=Lax cookie and goes to the asked address', async () => {
  const p = await s.person('ada@example.com', { datasources: ['wiki'] });
  const b = new HttpBrowser(s.base);
  const res = await b.signIn(p.email, p.password, '/chat');
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/chat');
  const cookie = sessionCookie(res)!;
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.doesNotMatch(cookie, /Secure/i, 'plain http: no Secure flag');
  const page = await b.request('/');
  assert.equal(page.status, 200);
  assert.match(page.text, /ada@example\.com/);
});

test('a wrong password, an unknown email and an account without a password get the same answer', async () => {
  await s.call('POST', '/api/admin/accounts', MASTER, { email: 'nopass@example.com' });
  const b = new HttpBrowser(s.base);
  const answers = [];
  for (const [email, password] of [
    ['ada@example.com', 'not the password at all'],
    ['ghost@example.com', 'whatever password 1'],
    ['nopass@example.com', 'whatever password 2'],
  ]) {
    const res = await b.signIn(email, password);
    assert.equal(res.status, 401);
    assert.equal(sessionCookie(res), undefined);
    answers.push(/role="alert" id="signin-notice">([^<]*)</.exec(res.text)?.[1]);
  }
  assert.equal(new Set(answers).size, 1);
  assert.ok(answers[0]);
});

test('a form posted without its token, or from another site, is refused with 403', async () => {
  const p = await s.person('bob@example.com');
  const b = new HttpBrowser(s.base);
  await b.request('/signin');
  const noToken = await b.request('/signin', { form: { email: p.email, password: p.password } });
  assert.equal(noToken.status, 403);
  const page = await b.request('/signin');
  const token = HttpBrowser.formToken(page.text);
  const crossSite = await b.request('/signin', {
    form: { _csrf: token, email: p.email, password: p.password },
    headers: { origin: 'https://evil.example' },
  });
  assert.equal(crossSite.status, 403);
  const fetchSite = await b.request('/signin', {
    form: { _csrf: token, email: p.email, password: p.password },
    headers: { 'sec-fetch-site': 'cross-site' },
  });
  assert.equal(fetchSite.status, 403);
  const ok = await b.request('/signin', { form: { _csrf: token, email: p.email, password: p.password } });
  assert.equal(ok.status, 303);
});

test('behind a trusted proxy that says https, the cookie is Secure', async () => {
  const proxied = await webServer({ env: { TRUST_PROXY: 'true' } });
  try {
    const p = await proxied.person('carol@example.com');
    const b = new HttpBrowser(proxied.base);
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': new URL(proxied.base).host };
    const page = await b.request('/signin', { headers });
    const res = await b.request('/signin', {
      form: { _csrf: HttpBrowser.formToken(page.text), email: p.email, password: p.password, next: '/' },
      headers,
    });
    assert.equal(res.status, 303);
    assert.match(sessionCookie(res)!, /Secure/);
  } finally {
    await proxied.close();
  }
});

test('after sign-in the session reads the public API; a state change needs the CSRF header', async () => {
  const p = await s.person('dave@example.com', { datasources: ['wiki'] });
  const b = new HttpBrowser(s.base);
  await b.signIn(p.email, p.password);
  const search = await b.request('/api/beta/search?query=travel');
  assert.equal(search.status, 200);
  assert.deepEqual(JSON.parse(search.text), { results: [] });
  const body = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });
  const chat = (headers: Record<string, string>) =>
    fetch(`${s.base}/api/beta/serviceai/chat/completions`, {
      method: 'POST',
      headers: {
        cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });
  assert.equal((await chat({})).status, 403);
  assert.equal((await chat({ 'x-csrf-token': 'wrong' })).status, 403);
  const page = await b.request('/');
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.text)![1];
  assert.equal((await chat({ 'x-csrf-token': csrf, origin: 'https://evil.example' })).status, 403);
  assert.equal((await chat({ 'x-csrf-token': csrf })).status, 200);
});

test('signing out ends the session at once: the old cookie gets 401 from the API and the sign-in page from pages', async () => {
  const p = await s.person('erin@example.com', { datasources: ['wiki'] });
  const b = new HttpBrowser(s.base);
  await b.signIn(p.email, p.password);
  const old = b.cookies.get('es_session')!;
  const page = await b.request('/');
  const out = await b.request('/signout', { form: { _csrf: HttpBrowser.formToken(page.text) } });
  assert.equal(out.status, 303);
  assert.equal(b.cookies.has('es_session'), false, 'the cookie is cleared');
  const api = await fetch(`${s.base}/api/beta/search?query=x`, { headers: { cookie: `es_session=${old}` } });
  assert.equal(api.status, 401);
  const again = await fetch(`${s.base}/`, { headers: { cookie: `es_session=${old}` }, redirect: 'manual' });
  assert.equal(again.status, 303);
  assert.match(again.headers.get('location')!, /^\/signin\?/);
});

test('an administrator ending the sessions, a new password, or deleting the account ends the session at once', async () => {
  for (const end of ['revoke', 'password', 'delete'] as const) {
    const email = `frank-${end}@example.com`;
    const p = await s.person(email);
    const b = new HttpBrowser(s.base);
    await b.signIn(p.email, p.password);
    assert.equal((await b.request('/api/beta/search?query=x')).status, 200);
    const path = `/api/admin/accounts/${encodeURIComponent(email)}`;
    if (end === 'revoke') {
      const res = await s.call('DELETE', `${path}/sessions`, MASTER);
      assert.deepEqual(res.body, { email, ended: 1 });
    } else if (end === 'password') {
      assert.equal(
        (await s.call('PUT', `${path}/password`, MASTER, { password: 'another long password' })).status,
        200,
      );
    } else {
      assert.equal((await s.call('DELETE', path, MASTER)).status, 200);
    }
    assert.equal((await b.request('/api/beta/search?query=x')).status, 401, end);
  }
});

test('sessions end after the idle timeout and after the absolute lifetime', async () => {
  const p = await s.person('gina@example.com');
  const b = new HttpBrowser(s.base);
  await b.signIn(p.email, p.password);
  clock += 11 * 3600_000; // idle default 12 h
  assert.equal((await b.request('/api/beta/search?query=x')).status, 200, 'used within the idle timeout');
  clock += 11 * 3600_000;
  assert.equal((await b.request('/api/beta/search?query=x')).status, 200, 'activity moved the idle deadline');
  clock += 13 * 3600_000;
  assert.equal((await b.request('/api/beta/search?query=x')).status, 401, 'idle for 13 h');

  await b.signIn(p.email, p.password);
  for (let i = 0; i < 16; i++) {
    clock += 10 * 3600_000;
    assert.equal((await b.request('/api/beta/search?query=x')).status, 200);
  }
  clock += 10 * 3600_000; // 170 h after sign-in; the absolute default is 168 h
  assert.equal((await b.request('/api/beta/search?query=x')).status, 401, 'past the absolute lifetime');
});

test('only local addresses are followed after sign-in', async () => {
  const p = await s.person('hank@example.com');
  for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
    const b = new HttpBrowser(s.base);
    const res = await b.signIn(p.email, p.password, next);
    assert.equal(res.headers.get('location'), '/', next);
  }
});

test('pages carry a strict CSP, no inline script, and refuse framing', async () => {
  const b = new HttpBrowser(s.base);
  const res = await b.request('/signin');
  const csp = res.headers.get('content-security-policy')!;
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('referrer-policy'), 'same-origin');
  for (const tag of res.text.match(/<script[^>]*>/g) ?? [])
    assert.match(tag, /src="\/assets\/|type="application\/json"/);
  assert.doesNotMatch(res.text, / on[a-z]+="/i, 'no inline event handlers');
  assert.doesNotMatch(res.text, / style="/i, 'no inline styles');
});

test('German by default, English from Accept-Language, and the switch overrides both', async () => {
  const b = new HttpBrowser(s.base);
  assert.match((await b.request('/signin')).text, /<html lang="de">[\s\S]*Anmelden/);
  assert.match(
    (await b.request('/signin', { headers: { 'accept-language': 'en-US,en;q=0.9' } })).text,
    /<html lang="en">[\s\S]*Sign in/,
  );
  assert.match(
    (await b.request('/signin', { headers: { 'accept-language': 'fr, de;q=0.5' } })).text,
    /<html lang="de">/,
  );
  const page = await b.request('/signin', { headers: { 'accept-language': 'en' } });
  const res = await b.request('/settings/language', {
    form: { _csrf: HttpBrowser.formToken(page.text), lang: 'de', next: '/signin' },
  });
  assert.equal(res.status, 303);
  assert.match((await b.request('/signin', { headers: { 'accept-language': 'en' } })).text, /<html lang="de">/);
});
