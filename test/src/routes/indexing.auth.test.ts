/** Every Indexing API control-plane route requires a service-account key: 401 without a valid key, 403 for other kinds. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { revokeKey } from '../../../src/accounts/accounts.ts';
import { createServiceAccount } from '../../../src/accounts/service-accounts.ts';
import { MASTER_KEY } from '../../support/app.ts';
import { indexingFixture } from '../../support/controlplane.ts';

const ROUTES: [string, string, unknown?][] = [
  ['POST', '/datasources', { name: 'ds', display_name: 'DS' }],
  ['GET', '/datasources'],
  ['GET', '/datasources/ds'],
  ['PUT', '/datasources/ds', { display_name: 'x' }],
  ['DELETE', '/datasources/ds'],
  ['POST', '/datasources/ds/subs', { name: 'A' }],
  ['DELETE', '/datasources/ds/subs/a'],
  ['GET', '/file-types'],
  ['POST', '/users', { datasource: 'ds', user: { email: 'a@x.com' } }],
  ['GET', '/users/ds'],
  ['PUT', '/users/ds/a@x.com', { name: 'A' }],
  ['DELETE', '/users/ds/a@x.com'],
  ['POST', '/groups', { datasource: 'ds', group: { name: 'g' } }],
  ['GET', '/groups/ds'],
  ['PUT', '/groups/ds/g', { group_name: 'h' }],
  ['DELETE', '/groups/ds/g'],
  ['POST', '/memberships', { datasource: 'ds', membership: { group_name: 'g', member_email: 'a@x.com' } }],
  ['DELETE', '/memberships/ds/g/user/a@x.com'],
];

test('no Authorization header: 401 {detail} with WWW-Authenticate on every route', async () => {
  const f = await indexingFixture();
  for (const [method, path, body] of ROUTES) {
    const res = await f.call(method, path, body, null);
    assert.equal(res.status, 401, `${method} ${path}`);
    assert.deepEqual(res.body, { detail: 'Not authenticated' });
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
  }
});

test('unknown, malformed, revoked and expired keys: 401 {detail}', async () => {
  const f = await indexingFixture();
  const expiring = await createServiceAccount(f.services, {
    name: 'short',
    expiresAt: f.services.now() + 1000,
    createdBy: 'master',
  });
  const revoked = await createServiceAccount(f.services, { name: 'gone', expiresAt: null, createdBy: 'master' });
  await revokeKey(f.services, revoked.key_id, { mayRevokeServiceKeys: true, actor: 'master' });
  f.advance(2000);
  for (const key of ['svcsa_not_a_real_key', expiring.key, revoked.key]) {
    for (const [method, path, body] of ROUTES) {
      const res = await f.call(method, path, body, key);
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(typeof res.body.detail, 'string');
    }
  }
});

test('a personal key or the master key: 403 {detail} on every route', async () => {
  const f = await indexingFixture();
  for (const key of [f.personalKey, MASTER_KEY]) {
    for (const [method, path, body] of ROUTES) {
      const res = await f.call(method, path, body, key);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.deepEqual(res.body, { detail: 'The Indexing API accepts only service-account keys (svcsa_...)' });
    }
  }
  assert.deepEqual((await f.call('GET', '/datasources')).body, { datasources: [] }, 'nothing was created');
});

test('unknown routes under /api/indexing are 404 and wrong methods 405', async () => {
  const f = await indexingFixture();
  const unknown = await f.call('GET', '/nothing-here');
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { detail: 'Not Found' });
  const wrong = await f.call('PATCH', '/datasources/ds');
  assert.equal(wrong.status, 405);
  assert.deepEqual(wrong.body, { detail: 'Method Not Allowed' });
});
