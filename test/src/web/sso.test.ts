/**
 * Single sign-on with OpenID Connect against a real provider (oidc-provider on 127.0.0.1), at
 * HTTP level: first sign-in creates the account from the verified email, groups map to roles,
 * and every way the exchange can be wrong is refused with a clear message: a replayed or foreign
 * state, an unverified email, a domain not allowed, a wrong audience, an expired or foreign-signed
 * ID token. Signing keys rotate without breaking sign-in. Local passwords can be turned off.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { CLIENT_ID, CLIENT_SECRET, startOpenIdProvider, type OpenIdProvider } from '../../support/oidc-provider.ts';
import { Jar, ssoSignIn } from '../../support/sso.ts';
import { HttpBrowser, webServer, type WebServer } from '../../support/web.ts';

let provider: OpenIdProvider;
let s: WebServer;

const ssoEnv = (issuer: string, extra: Record<string, string> = {}) => ({
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: CLIENT_ID,
  OIDC_CLIENT_SECRET: CLIENT_SECRET,
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_ALLOWED_DOMAINS: 'example.com',
  OIDC_ADMIN_GROUPS: 'search-admins',
  OIDC_DEVELOPER_GROUPS: 'search-devs',
  OIDC_LABEL: 'Example ID',
  ...extra,
});

before(async () => {
  provider = await startOpenIdProvider();
  s = await webServer({ env: ssoEnv(provider.issuer) });
  provider.setRedirectUri(`${s.base}/signin/oidc/callback`);
  provider.setAccount('ada', { email: 'Ada@Example.com', email_verified: true, groups: ['search-admins'] });
  provider.setAccount('bob', { email: 'bob@example.com', email_verified: false });
  provider.setAccount('eve', { email: 'eve@elsewhere.org', email_verified: true });
  provider.setAccount('nomail', {});
});
after(async () => {
  await s?.close();
  await provider?.close();
});

async function signInAs(login: string) {
  const jar = new Jar();
  const { callback } = await ssoSignIn(jar, s.base, provider, login);
  assert.ok(callback, 'the provider sent the browser back');
  return { jar, res: await jar.fetch(callback!), callback: callback! };
}

const alert = (html: string) => /role="alert" id="signin-notice">([^<]*)</.exec(html)?.[1];

test('the sign-in page offers the provider beside the password form', async () => {
  const page = await new HttpBrowser(s.base).request('/signin');
  assert.match(page.text, /Anmelden mit Example ID/);
  assert.match(page.text, /id="password-form"/);
});

test('first sign-in creates the account from the verified email, with roles from the groups claim', async () => {
  const { jar, res } = await signInAs('ada');
  assert.equal(res.status, 303);
  assert.equal(res.location, `${s.base}/`);
  assert.ok(jar.cookie(s.base, 'es_session'));
  const accounts = await s.call('GET', '/api/admin/accounts', MASTER);
  const ada = accounts.body.accounts.find((a: { email: string }) => a.email === 'ada@example.com');
  assert.deepEqual(ada.roles, ['administrator']);
  const sessions = await s.call('GET', '/api/admin/accounts/ada@example.com/sessions', MASTER);
  assert.equal(sessions.body.sessions[0].method, 'oidc');
  const search = await jar.fetch(`${s.base}/api/beta/search?query=x`);
  assert.equal(search.status, 200, 'the session reads the API as the account');
});

test('the groups claim updates the roles at every sign-in', async () => {
  provider.setAccount('ada', { email: 'ada@example.com', email_verified: true, groups: ['search-devs'] });
  await signInAs('ada');
  const accounts = await s.call('GET', '/api/admin/accounts', MASTER);
  assert.deepEqual(accounts.body.accounts.find((a: { email: string }) => a.email === 'ada@example.com').roles, [
    'developer',
  ]);
});

test('a callback used twice is refused: the state is single use', async () => {
  const { callback, res } = await signInAs('ada');
  assert.equal(res.status, 303);
  const replay = await new Jar().fetch(callback);
  assert.equal(replay.status, 400);
  assert.match(alert(replay.text)!, /zu lange gedauert oder wurde schon benutzt/);
});

test('a callback arriving in another browser than the one that started is refused', async () => {
  const { callback } = await ssoSignIn(new Jar(), s.base, provider, 'ada');
  const other = new Jar();
  const res = await other.fetch(callback!);
  assert.equal(res.status, 400);
  assert.equal(other.cookie(s.base, 'es_session'), undefined);
});

test('an unverified email, a domain not allowed and a missing email are refused with their reason', async () => {
  for (const [login, message] of [
    ['bob', /nicht bestätigt/],
    ['eve', /E-Mail-Domain dürfen sich hier nicht anmelden/],
    ['nomail', /keine E-Mail-Adresse/],
  ] as const) {
    const { jar, res } = await signInAs(login);
    assert.equal(res.status, 401, login);
    assert.match(alert(res.text)!, message, login);
    assert.equal(jar.cookie(s.base, 'es_session'), undefined, login);
  }
  const accounts = await s.call('GET', '/api/admin/accounts', MASTER);
  assert.equal(
    accounts.body.accounts.some((a: { email: string }) => /bob@|eve@/.test(a.email)),
    false,
    'no account is created for a refused sign-in',
  );
});

test('ID tokens with a wrong audience, an expired one, or a foreign signature are refused', async () => {
  const foreign = await provider.foreignSigner();
  const now = Math.floor(Date.now() / 1000);
  const cases: [string, Parameters<OpenIdProvider['setTamper']>[0]][] = [
    ['wrong audience', (claims, sign) => sign({ ...claims, aud: 'someone-else' })],
    ['expired', (claims, sign) => sign({ ...claims, iat: now - 7200, exp: now - 3600 })],
    ['foreign signature', (claims) => foreign(claims)],
    ['wrong issuer', (claims, sign) => sign({ ...claims, iss: 'http://127.0.0.1:1' })],
    ['wrong nonce', (claims, sign) => sign({ ...claims, nonce: 'not-the-nonce' })],
  ];
  try {
    for (const [name, tamper] of cases) {
      provider.setTamper(tamper);
      const before = provider.tokenRequests();
      const { jar, res } = await signInAs('ada');
      assert.equal(provider.tokenRequests(), before + 1, `${name}: the token endpoint was called`);
      assert.equal(res.status, 401, name);
      assert.match(alert(res.text)!, /Token geantwortet, dem nicht vertraut werden kann/, name);
      assert.equal(jar.cookie(s.base, 'es_session'), undefined, name);
    }
    provider.setTamper((claims, sign) => sign(claims));
    assert.equal((await signInAs('ada')).res.status, 303, 'an untampered token re-signed with the real key passes');
  } finally {
    provider.setTamper(undefined);
  }
});

test('the provider rotating its signing keys does not break sign-in', async () => {
  assert.equal((await signInAs('ada')).res.status, 303);
  await provider.rotateKeys();
  provider.setRedirectUri(`${s.base}/signin/oidc/callback`);
  // The relying party re-reads the key set for an unknown key id once its copy is a minute old
  // (openid-client's guard against key-set floods): let a minute pass for everyone in this process.
  const realNow = Date.now;
  Date.now = () => realNow() + 61_000;
  try {
    assert.equal((await signInAs('ada')).res.status, 303, 'the new key is fetched from the JWKS');
  } finally {
    Date.now = realNow;
  }
});

test('with local passwords turned off, only single sign-on is offered and password sign-in is refused', async () => {
  const ssoOnly = await webServer({ env: ssoEnv(provider.issuer, { PASSWORD_SIGNIN: 'false' }) });
  try {
    const p = await ssoOnly.person('pat@example.com', { password: null });
    const set = await ssoOnly.call('PUT', '/api/admin/accounts/pat@example.com/password', MASTER, {
      password: 'a long enough password',
    });
    assert.equal(set.status, 409, 'no passwords to set');
    const link = await ssoOnly.call('POST', '/api/admin/accounts/pat@example.com/sign-in-links', MASTER, {});
    assert.equal(link.status, 409, 'no sign-in links either');
    const b = new HttpBrowser(ssoOnly.base);
    const page = await b.request('/signin');
    assert.match(page.text, /Anmelden mit Example ID/);
    assert.doesNotMatch(page.text, /id="password-form"/);
    const res = await b.request('/signin', {
      form: { _csrf: HttpBrowser.formToken(page.text), email: p.email, password: 'a long enough password' },
    });
    assert.equal(res.status, 403);
    assert.equal(b.cookies.has('es_session'), false);
  } finally {
    await ssoOnly.close();
  }
});

test('an unreachable provider gives a readable message, not an error page', async () => {
  const down = await webServer({ env: ssoEnv('http://127.0.0.1:9') });
  try {
    const b = new HttpBrowser(down.base);
    const page = await b.request('/signin');
    const res = await b.request('/signin/oidc', { form: { _csrf: HttpBrowser.formToken(page.text), next: '/' } });
    assert.equal(res.status, 502);
    assert.match(res.text, /Anmeldedienst ist nicht erreichbar/);
  } finally {
    await down.close();
  }
});
