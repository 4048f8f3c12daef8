/** Admin API, accounts: create (normalised email), 409, 422 shapes, list, delete (404, revokes keys), who may call. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appHarness } from '../../support/app.ts';

test('create normalises the email, keeps name and roles; list shows accounts by email', async () => {
  const h = await appHarness();
  const a = await h.admin('POST', '/api/admin/accounts', {
    email: '  Zed@Example.COM ',
    name: 'Zed',
    roles: ['developer', 'administrator'],
  });
  assert.equal(a.status, 200);
  assert.match(a.body.id, /^acc_[0-9a-f]{16}$/);
  assert.deepEqual(
    [a.body.email, a.body.name, a.body.roles, a.body.keys],
    ['zed@example.com', 'Zed', ['administrator', 'developer'], []],
  );
  const b = await h.admin('POST', '/api/admin/accounts', { email: 'amy@example.com' });
  assert.deepEqual([b.body.name, b.body.roles], [null, []]);
  const list = await h.admin('GET', '/api/admin/accounts');
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.accounts.map((x: any) => x.email),
    ['amy@example.com', 'zed@example.com'],
  );
});

test('a duplicate email (after normalisation) is 409 {detail}', async () => {
  const h = await appHarness();
  assert.equal((await h.admin('POST', '/api/admin/accounts', { email: 'a@example.com' })).status, 200);
  const dup = await h.admin('POST', '/api/admin/accounts', { email: ' A@EXAMPLE.com' });
  assert.equal(dup.status, 409);
  assert.equal(typeof dup.body.detail, 'string');
});

test('invalid bodies are 422 in the Pydantic shape, one item per offending field', async () => {
  const h = await appHarness();
  const missing = await h.admin('POST', '/api/admin/accounts', { name: 'x' });
  assert.equal(missing.status, 422);
  assert.deepEqual(
    missing.body.detail.map((i: any) => [i.type, i.loc]),
    [['missing', ['body', 'email']]],
  );

  const several = await h.admin('POST', '/api/admin/accounts', { email: 5, roles: ['owner'], extra: true });
  assert.equal(several.status, 422);
  const byLoc = Object.fromEntries(several.body.detail.map((i: any) => [i.loc.join('.'), i.type]));
  assert.deepEqual(byLoc, {
    'body.email': 'string_type',
    'body.roles.0': 'literal_error',
    'body.extra': 'extra_forbidden',
  });

  const notEmail = await h.admin('POST', '/api/admin/accounts', { email: 'not-an-email' });
  assert.equal(notEmail.status, 422);
  assert.deepEqual(notEmail.body.detail[0].loc, ['body', 'email']);

  const badJson = await h.admin('POST', '/api/admin/accounts', '{"email": ');
  assert.equal(badJson.status, 422);
  assert.equal(badJson.body.detail[0].type, 'json_invalid');
});

test('delete: 404 for an unknown email; deleting revokes the account keys and frees the email', async () => {
  const h = await appHarness();
  assert.equal((await h.admin('DELETE', '/api/admin/accounts/nobody@example.com')).status, 404);
  await h.admin('POST', '/api/admin/accounts', { email: 'x+tag@example.com', roles: ['administrator'] });
  const key = (await h.admin('POST', `/api/admin/accounts/${encodeURIComponent('x+tag@example.com')}/keys`, {})).body
    .key;
  assert.equal((await h.call('GET', '/api/admin/accounts', { key })).status, 200);
  const del = await h.admin('DELETE', `/api/admin/accounts/${encodeURIComponent('X+Tag@Example.com')}`);
  assert.equal(del.status, 200);
  assert.deepEqual(del.body, { email: 'x+tag@example.com', deleted: true, revoked_keys: 1 });
  assert.equal((await h.call('GET', '/api/admin/accounts', { key })).status, 401);
  assert.deepEqual((await h.admin('GET', '/api/admin/accounts')).body.accounts, []);
  assert.equal((await h.admin('POST', '/api/admin/accounts', { email: 'x+tag@example.com' })).status, 200);
});

test('administrator accounts may manage accounts; others get 401 or 403', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'root@example.com', roles: ['administrator'] });
  await h.admin('POST', '/api/admin/accounts', { email: 'dev@example.com', roles: ['developer'] });
  const rootKey = (await h.admin('POST', '/api/admin/accounts/root@example.com/keys', {})).body.key;
  const devKey = (await h.admin('POST', '/api/admin/accounts/dev@example.com/keys', {})).body.key;
  assert.equal(
    (await h.call('POST', '/api/admin/accounts', { key: rootKey, body: { email: 'new@example.com' } })).status,
    200,
  );
  assert.equal(
    (await h.call('POST', '/api/admin/accounts', { key: devKey, body: { email: 'n2@example.com' } })).status,
    403,
  );
  assert.equal((await h.call('GET', '/api/admin/accounts', { key: null })).status, 401);
  assert.equal((await h.call('DELETE', '/api/admin/accounts/new@example.com', { key: devKey })).status, 403);
});

test('an administrator-only account cannot reach the developer role: no grant, no key, no delete, no revoke (403)', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'admin@example.com', roles: ['administrator'] });
  await h.admin('POST', '/api/admin/accounts', { email: 'both@example.com', roles: ['administrator', 'developer'] });
  const adminKey = (await h.admin('POST', '/api/admin/accounts/admin@example.com/keys', {})).body.key;
  const bothKeyId = (await h.admin('POST', '/api/admin/accounts/both@example.com/keys', {})).body.id;
  const as = (method: string, path: string, body?: unknown) => h.call(method, path, { key: adminKey, body });

  const grant = await as('POST', '/api/admin/accounts', {
    email: 'sneaky@example.com',
    roles: ['administrator', 'developer'],
  });
  assert.equal(grant.status, 403);
  assert.match(grant.body.detail, /developer role/);
  assert.equal(
    (await h.admin('GET', '/api/admin/accounts')).body.accounts.some((a: any) => a.email === 'sneaky@example.com'),
    false,
  );
  assert.equal((await as('POST', '/api/admin/accounts/both@example.com/keys', {})).status, 403);
  assert.equal((await as('DELETE', `/api/admin/keys/${bothKeyId}`)).status, 403);
  assert.equal((await as('DELETE', '/api/admin/accounts/both@example.com')).status, 403);
  assert.equal(
    (await h.admin('GET', '/api/admin/accounts')).body.accounts.find((a: any) => a.email === 'both@example.com').keys[0]
      .revoked_at,
    null,
  );

  // Within its own roles the administrator acts freely; the master key may do anything.
  assert.equal(
    (await as('POST', '/api/admin/accounts', { email: 'peer@example.com', roles: ['administrator'] })).status,
    200,
  );
  assert.equal((await as('POST', '/api/admin/accounts/peer@example.com/keys', {})).status, 200);
  assert.equal((await as('DELETE', '/api/admin/accounts/peer@example.com')).status, 200);
  assert.equal(
    (await h.admin('POST', '/api/admin/accounts', { email: 'x@example.com', roles: ['administrator', 'developer'] }))
      .status,
    200,
  );
  assert.equal((await h.admin('DELETE', '/api/admin/accounts/both@example.com')).status, 200);
});

test('wrong methods on admin paths are 405', async () => {
  const h = await appHarness();
  const res = await h.admin('PUT', '/api/admin/accounts');
  assert.equal(res.status, 405);
});
