/**
 * PUT /api/admin/keys/{id}/expiry: set or clear when a key expires (the key then stops working at
 * that time), with the permissions of revoking it: personal keys only of accounts whose roles the
 * caller holds, service-account keys only with the administrator and developer roles.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appHarness } from '../../support/app.ts';

async function setUp() {
  const h = await appHarness();
  const account = async (email: string, roles: string[]) => {
    await h.admin('POST', '/api/admin/accounts', { email, roles });
    return (await h.admin('POST', `/api/admin/accounts/${email}/keys`, {})).body as { id: string; key: string };
  };
  const expiry = (id: string, body: unknown, key?: string) =>
    key
      ? h.call('PUT', `/api/admin/keys/${id}/expiry`, { key, body })
      : h.admin('PUT', `/api/admin/keys/${id}/expiry`, body);
  return { h, account, expiry };
}

test('a key set to expire works until then and answers 401 afterwards; null clears the expiry', async () => {
  const { h, account, expiry } = await setUp();
  const p = await account('p@example.com', []);
  const at = '2026-06-02T00:00:00Z';
  const set = await expiry(p.id, { expires_at: at });
  assert.equal(set.status, 200);
  assert.deepEqual(Object.keys(set.body).sort(), ['created_at', 'expires_at', 'id', 'kind', 'revoked_at']);
  assert.equal(set.body.expires_at, '2026-06-02T00:00:00.000Z');
  const listed = (await h.admin('GET', '/api/admin/accounts')).body.accounts[0].keys[0];
  assert.equal(listed.expires_at, '2026-06-02T00:00:00.000Z');
  assert.equal((await h.call('GET', '/api/beta/openapi.json', { key: p.key })).status, 200);
  h.setNow(Date.parse('2026-06-02T00:00:01Z'));
  const expired = await h.call('GET', '/api/beta/openapi.json', { key: p.key });
  assert.equal(expired.status, 401);
  assert.equal(expired.body.detail, 'API key has expired');
  const cleared = await expiry(p.id, { expires_at: null });
  assert.equal(cleared.body.expires_at, null);
  assert.equal((await h.call('GET', '/api/beta/openapi.json', { key: p.key })).status, 200);
});

test('the time must be in the future and given explicitly (422); unknown keys 404; revoked keys 409', async () => {
  const { h, account, expiry } = await setUp();
  const p = await account('p@example.com', []);
  const past = await expiry(p.id, { expires_at: '2020-01-01T00:00:00Z' });
  assert.deepEqual([past.status, past.body.detail[0].type], [422, 'datetime_future']);
  const missing = await expiry(p.id, {});
  assert.deepEqual([missing.status, missing.body.detail[0].loc], [422, ['body', 'expires_at']]);
  assert.equal((await expiry('key_nope', { expires_at: null })).status, 404);
  await h.admin('DELETE', `/api/admin/keys/${p.id}`);
  const revoked = await expiry(p.id, { expires_at: null });
  assert.equal(revoked.status, 409);
  assert.match(revoked.body.detail, /revoked/);
});

test('no escalation: an administrator changes only keys of accounts whose roles it holds, and service keys only as a developer too', async () => {
  const { h, account, expiry } = await setUp();
  const admin = await account('admin@example.com', ['administrator']);
  const both = await account('both@example.com', ['administrator', 'developer']);
  const dev = await account('dev@example.com', ['developer']);
  const plain = await account('plain@example.com', []);
  const sa = (await h.admin('POST', '/api/admin/service-accounts', { name: 'importer' })).body;
  const future = { expires_at: '2027-01-01T00:00:00Z' };
  assert.equal((await expiry(plain.id, future, admin.key)).status, 200);
  const denied = await expiry(dev.id, future, admin.key);
  assert.equal(denied.status, 403);
  assert.match(denied.body.detail, /developer role/);
  assert.equal((await expiry(sa.key_id, future, admin.key)).status, 403);
  assert.equal((await expiry(sa.key_id, future, both.key)).status, 200);
  assert.equal((await expiry(dev.id, future, both.key)).status, 200);
  const listed = (await h.admin('GET', '/api/admin/service-accounts')).body.service_accounts[0];
  assert.equal(listed.expires_at, '2027-01-01T00:00:00.000Z');
});
