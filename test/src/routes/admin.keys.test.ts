/** Admin API, keys: issue personal keys (secret once, expiry validation), revoke (idempotent, 404), stored only hashed. */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { sha256, toHex } from '../../../src/accounts/secrets.ts';
import { stateDir } from '../../../src/open-state.ts';
import { appHarness } from '../../support/app.ts';
import { tempDir } from '../../support/tmp.ts';

test('issuing a key returns {id, key, expires_at} once; listings show the key without its secret', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'p@example.com' });
  const res = await h.admin('POST', '/api/admin/accounts/P@example.com/keys', {
    expires_at: '2027-01-02T03:04:05+02:00',
  });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['expires_at', 'id', 'key']);
  assert.match(res.body.key, /^pk_[A-Za-z0-9_-]{43}$/);
  assert.equal(res.body.expires_at, '2027-01-02T01:04:05.000Z');
  const noBody = await h.admin('POST', '/api/admin/accounts/p@example.com/keys');
  assert.equal(noBody.status, 200);
  assert.equal(noBody.body.expires_at, null);
  assert.notEqual(noBody.body.key, res.body.key);
  const listed = JSON.stringify((await h.admin('GET', '/api/admin/accounts')).body);
  assert.ok(listed.includes(res.body.id) && !listed.includes(res.body.key) && !listed.includes(noBody.body.key));
});

test('expires_at must be an ISO 8601 date-time in the future (422); an unknown account is 404', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'p@example.com' });
  const past = await h.admin('POST', '/api/admin/accounts/p@example.com/keys', { expires_at: '2020-01-01T00:00:00Z' });
  assert.equal(past.status, 422);
  assert.deepEqual([past.body.detail[0].type, past.body.detail[0].loc], ['datetime_future', ['body', 'expires_at']]);
  const garbage = await h.admin('POST', '/api/admin/accounts/p@example.com/keys', { expires_at: 'next tuesday' });
  assert.equal(garbage.status, 422);
  assert.equal(garbage.body.detail[0].type, 'datetime_parsing');
  const extra = await h.admin('POST', '/api/admin/accounts/p@example.com/keys', { expiry: '2030-01-01' });
  assert.equal(extra.body.detail[0].type, 'extra_forbidden');
  assert.equal((await h.admin('POST', '/api/admin/accounts/nobody@example.com/keys', {})).status, 404);
});

test('revoking: 404 for an unknown id, idempotent for a revoked key, and the key stops working', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'a@example.com', roles: ['administrator'] });
  const issued = (await h.admin('POST', '/api/admin/accounts/a@example.com/keys', {})).body;
  assert.equal((await h.admin('DELETE', '/api/admin/keys/key_0000000000000000')).status, 404);
  assert.equal((await h.call('GET', '/api/admin/accounts', { key: issued.key })).status, 200);
  const first = await h.admin('DELETE', `/api/admin/keys/${issued.id}`);
  assert.equal(first.status, 200);
  assert.equal(first.body.id, issued.id);
  assert.equal(first.body.revoked_at, new Date(h.now()).toISOString());
  h.setNow(h.now() + 5000);
  const again = await h.admin('DELETE', `/api/admin/keys/${issued.id}`);
  assert.deepEqual(again.body, first.body);
  assert.equal((await h.call('GET', '/api/admin/accounts', { key: issued.key })).status, 401);
});

test('an administrator without the developer role may not revoke service-account keys (403)', async () => {
  const h = await appHarness();
  await h.admin('POST', '/api/admin/accounts', { email: 'a@example.com', roles: ['administrator'] });
  const adminKey = (await h.admin('POST', '/api/admin/accounts/a@example.com/keys', {})).body.key;
  const sa = (await h.admin('POST', '/api/admin/service-accounts', { name: 'bot' })).body;
  assert.equal((await h.call('DELETE', `/api/admin/keys/${sa.key_id}`, { key: adminKey })).status, 403);
  assert.equal((await h.admin('DELETE', `/api/admin/keys/${sa.key_id}`)).status, 200);
});

test('secrets are stored only as SHA-256 digests: the raw keys never reach the state files', async () => {
  const dataDir = await tempDir('keys-');
  const h = await appHarness({ dataDir, adminKey: null });
  const { ensureMasterKey } = await import('../../../src/accounts/master.ts');
  const master = await ensureMasterKey(h.services);
  assert.ok(master);
  await h.call('POST', '/api/admin/accounts', { key: master, body: { email: 'a@example.com' } });
  const personal = (await h.call('POST', '/api/admin/accounts/a@example.com/keys', { key: master, body: {} })).body.key;
  const service = (await h.call('POST', '/api/admin/service-accounts', { key: master, body: { name: 'bot' } })).body
    .key;
  await h.close();
  let stored = '';
  for (const name of await readdir(stateDir(dataDir)))
    stored += (await readFile(join(stateDir(dataDir), name))).toString('latin1');
  for (const secret of [master, personal, service]) {
    assert.equal(stored.includes(secret), false, 'raw secret absent');
    assert.equal(
      stored.includes(secret.slice(secret.indexOf('_') + 1, secret.indexOf('_') + 12)),
      false,
      'no fragment either',
    );
    assert.ok(stored.includes(toHex(await sha256(secret))), 'its SHA-256 digest is stored');
  }
  const reopened = await appHarness({ dataDir, adminKey: null });
  assert.equal(
    (await reopened.call('GET', '/api/admin/accounts', { key: personal })).status,
    403,
    'still valid after restart',
  );
  assert.equal((await reopened.call('GET', '/api/admin/accounts', { key: master })).status, 200);
  await reopened.close();
});
