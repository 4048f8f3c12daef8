/** Admin API, service accounts: who may create them, the svcsa_ key shown once, 409/422, listings without secrets. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appHarness, type AppHarness } from '../../support/app.ts';

async function accountKey(h: AppHarness, email: string, roles: string[]): Promise<string> {
  await h.admin('POST', '/api/admin/accounts', { email, roles });
  return (await h.admin('POST', `/api/admin/accounts/${email}/keys`, {})).body.key;
}

test('the master key creates a service account: {id, name, key} with an svcsa_ key that the Indexing API accepts', async () => {
  const h = await appHarness();
  const res = await h.admin('POST', '/api/admin/service-accounts', {
    name: '  Confluence connector ',
    expires_at: '2031-01-01',
  });
  assert.equal(res.status, 200);
  assert.match(res.body.id, /^sa_[0-9a-f]{16}$/);
  assert.equal(res.body.name, 'Confluence connector');
  assert.match(res.body.key, /^svcsa_[A-Za-z0-9_-]{43}$/);
  assert.equal(res.body.expires_at, '2031-01-01T00:00:00.000Z');
  const indexing = await h.call('GET', '/api/indexing/file-types', { key: res.body.key });
  assert.notEqual(indexing.status, 401);
  assert.notEqual(indexing.status, 403);
});

test('only the master key or an administrator+developer account may create one (403 otherwise)', async () => {
  const h = await appHarness();
  const both = await accountKey(h, 'both@example.com', ['administrator', 'developer']);
  const adminOnly = await accountKey(h, 'admin@example.com', ['administrator']);
  const devOnly = await accountKey(h, 'dev@example.com', ['developer']);
  const made = await h.call('POST', '/api/admin/service-accounts', { key: both, body: { name: 'by-both' } });
  assert.equal(made.status, 200);
  for (const key of [adminOnly, devOnly, made.body.key]) {
    const res = await h.call('POST', '/api/admin/service-accounts', { key, body: { name: 'nope' } });
    assert.equal(res.status, 403);
    assert.equal(typeof res.body.detail, 'string');
  }
  assert.equal(
    (await h.call('POST', '/api/admin/service-accounts', { key: null, body: { name: 'nope' } })).status,
    401,
  );
  const list = (await h.admin('GET', '/api/admin/service-accounts')).body.service_accounts;
  assert.deepEqual(
    list.map((s: any) => [s.name, s.created_by]),
    [['by-both', 'both@example.com']],
  );
});

test('duplicate names are 409; a missing or empty name and a past expiry are 422', async () => {
  const h = await appHarness();
  assert.equal((await h.admin('POST', '/api/admin/service-accounts', { name: 'bot' })).status, 200);
  const dup = await h.admin('POST', '/api/admin/service-accounts', { name: 'BOT' });
  assert.equal(dup.status, 409);
  assert.equal(typeof dup.body.detail, 'string');
  const missing = await h.admin('POST', '/api/admin/service-accounts', {});
  assert.deepEqual(
    [missing.status, missing.body.detail[0].type, missing.body.detail[0].loc],
    [422, 'missing', ['body', 'name']],
  );
  const empty = await h.admin('POST', '/api/admin/service-accounts', { name: '   ' });
  assert.deepEqual([empty.status, empty.body.detail[0].type], [422, 'string_too_short']);
  const past = await h.admin('POST', '/api/admin/service-accounts', {
    name: 'old',
    expires_at: '2001-01-01T00:00:00Z',
  });
  assert.deepEqual([past.status, past.body.detail[0].type], [422, 'datetime_future']);
});

test('the listing never contains secrets and shows revocation', async () => {
  const h = await appHarness();
  const a = (await h.admin('POST', '/api/admin/service-accounts', { name: 'a' })).body;
  const b = (await h.admin('POST', '/api/admin/service-accounts', { name: 'b' })).body;
  await h.admin('DELETE', `/api/admin/keys/${b.key_id}`);
  const res = await h.admin('GET', '/api/admin/service-accounts');
  assert.equal(res.status, 200);
  const text = JSON.stringify(res.body);
  assert.ok(!text.includes(a.key) && !text.includes(b.key) && !text.includes('svcsa_'));
  assert.deepEqual(
    res.body.service_accounts.map((s: any) => [s.id, s.name, s.revoked_at === null]),
    [
      [a.id, 'a', true],
      [b.id, 'b', false],
    ],
  );
  assert.equal((await h.call('GET', '/api/indexing/file-types', { key: b.key })).status, 401);
});
