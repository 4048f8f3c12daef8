/**
 * PUT /api/admin/accounts/{email}/roles: replaces an account's roles; no escalation (the caller must
 * hold every role the account has and gets), 404 for unknown accounts, 422 for unknown roles.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appHarness } from '../../support/app.ts';

test('the master key sets and removes roles; the account listing shows them', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'p@example.com' });
  const set = await h.admin('PUT', '/api/admin/accounts/P@example.com/roles', {
    roles: ['developer', 'administrator'],
  });
  assert.equal(set.status, 200);
  assert.deepEqual(set.body.roles, ['administrator', 'developer']);
  assert.equal(set.body.email, 'p@example.com');
  const cleared = await h.admin('PUT', '/api/admin/accounts/p@example.com/roles', { roles: [] });
  assert.deepEqual(cleared.body.roles, []);
  assert.deepEqual((await h.admin('GET', '/api/admin/accounts')).body.accounts[0].roles, []);
});

test('an administrator without the developer role can neither give nor take the developer role', async () => {
  const h = await appHarness();
  for (const [email, roles] of [
    ['admin@example.com', ['administrator']],
    ['dev@example.com', ['developer']],
    ['plain@example.com', []],
  ] as const)
    await h.admin('POST', '/api/admin/accounts', { email, roles });
  const key = (await h.admin('POST', '/api/admin/accounts/admin@example.com/keys', {})).body.key;
  const put = (email: string, roles: string[]) =>
    h.call('PUT', `/api/admin/accounts/${email}/roles`, { key, body: { roles } });
  const give = await put('plain@example.com', ['developer']);
  assert.equal(give.status, 403);
  assert.match(give.body.detail, /needs the developer role yourself/);
  assert.equal((await put('dev@example.com', [])).status, 403);
  assert.equal((await put('plain@example.com', ['administrator'])).status, 200);
  assert.deepEqual(
    (await h.admin('GET', '/api/admin/accounts')).body.accounts.find((a: any) => a.email === 'plain@example.com').roles,
    ['administrator'],
  );
});

test('unknown accounts 404; unknown roles, a missing list or other fields 422', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'p@example.com' });
  assert.equal((await h.admin('PUT', '/api/admin/accounts/nobody@example.com/roles', { roles: [] })).status, 404);
  const bad = await h.admin('PUT', '/api/admin/accounts/p@example.com/roles', { roles: ['owner'] });
  assert.deepEqual([bad.status, bad.body.detail[0].loc], [422, ['body', 'roles', 0]]);
  assert.equal((await h.admin('PUT', '/api/admin/accounts/p@example.com/roles', {})).status, 422);
  const extra = await h.admin('PUT', '/api/admin/accounts/p@example.com/roles', { roles: [], name: 'x' });
  assert.equal(extra.body.detail[0].type, 'extra_forbidden');
});
