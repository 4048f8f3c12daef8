/**
 * One-time sign-in links: issued through the admin API, opened in the browser to choose a
 * password; valid 24 hours and once; the person is signed in afterwards and can sign in with
 * the password later.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { HttpBrowser, webServer, type WebServer } from '../../support/web.ts';

let s: WebServer;
let clock = Date.parse('2026-06-01T08:00:00.000Z');

before(async () => {
  s = await webServer({ now: () => clock });
});
after(() => s.close());

async function linkFor(email: string): Promise<string> {
  if ((await s.call('POST', '/api/admin/accounts', MASTER, { email })).status !== 200) throw new Error('account');
  const res = await s.call('POST', `/api/admin/accounts/${email}/sign-in-links`, MASTER, {});
  assert.equal(res.status, 200);
  assert.equal(res.body.email, email);
  assert.equal(res.body.expires_at, new Date(clock + 24 * 3600_000).toISOString());
  return new URL(res.body.url).pathname;
}

test('a link lets the person choose a password, signs them in, and works only once', async () => {
  const path = await linkFor('lena@example.com');
  const b = new HttpBrowser(s.base);
  const page = await b.request(path);
  assert.equal(page.status, 200);
  assert.match(page.text, /lena@example\.com/);
  const token = HttpBrowser.formToken(page.text);
  const mismatch = await b.request(path, {
    form: { _csrf: token, password: 'a long new password', confirm: 'different' },
  });
  assert.equal(mismatch.status, 400);
  const short = await b.request(path, { form: { _csrf: token, password: 'short', confirm: 'short' } });
  assert.equal(short.status, 400);
  const ok = await b.request(path, {
    form: { _csrf: token, password: 'a long new password', confirm: 'a long new password' },
  });
  assert.equal(ok.status, 303);
  assert.equal(ok.headers.get('location'), '/');
  assert.equal((await b.request('/api/beta/search?query=x')).status, 200, 'signed in');

  const again = new HttpBrowser(s.base);
  assert.equal((await again.request(path)).status, 404, 'used links are gone');
  assert.equal((await again.signIn('lena@example.com', 'a long new password')).status, 303, 'the password works');
});

test('a link expires after 24 hours', async () => {
  const path = await linkFor('max@example.com');
  clock += 24 * 3600_000;
  const b = new HttpBrowser(s.base);
  assert.equal((await b.request(path)).status, 404);
});

test('two uses racing: only one sets the password', async () => {
  const path = await linkFor('nina@example.com');
  const b = new HttpBrowser(s.base);
  const token = HttpBrowser.formToken((await b.request(path)).text);
  const results = await Promise.all(
    ['first long password', 'second long password'].map((pw) =>
      b.request(path, { form: { _csrf: token, password: pw, confirm: pw } }),
    ),
  );
  assert.deepEqual(results.map((r) => r.status).sort(), [303, 404]);
});

test('unknown, malformed and deleted-account links are refused alike', async () => {
  const b = new HttpBrowser(s.base);
  assert.equal((await b.request('/signin/link/sil_' + 'A'.repeat(43))).status, 404);
  assert.equal((await b.request('/signin/link/nonsense')).status, 404);
  const path = await linkFor('olga@example.com');
  await s.call('DELETE', '/api/admin/accounts/olga@example.com', MASTER);
  assert.equal((await b.request(path)).status, 404);
});
