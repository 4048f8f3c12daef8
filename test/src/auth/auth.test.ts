/**
 * Authentication: 401 for a missing, malformed, unknown, revoked or expired
 * key (with `WWW-Authenticate: Bearer`), 403 for a valid key of the wrong
 * kind, and the principal each middleware hands to the handler.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { createAccount, createPersonalKey } from '../../../src/accounts/accounts.ts';
import { createServiceAccount } from '../../../src/accounts/service-accounts.ts';
import { constantTimeEqual } from '../../../src/accounts/secrets.ts';
import { requireAdmin, requirePersonal, requireServiceAccount } from '../../../src/auth/middleware.ts';
import type { AppEnv } from '../../../src/http/env.ts';
import { MASTER_KEY, appHarness, type AppHarness } from '../../support/app.ts';

let h: AppHarness;
let guarded: Hono<AppEnv>;
let svc: string;
let adminDev: string;
let plain: string;

async function get(path: string, header?: string) {
  const res = await guarded.request(path, header === undefined ? {} : { headers: { authorization: header } });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

before(async () => {
  h = await appHarness();
  guarded = new Hono<AppEnv>();
  guarded.get('/svc', requireServiceAccount(h.services), (c) => c.json(c.get('principal')));
  guarded.get('/personal', requirePersonal(h.services), (c) => c.json(c.get('principal')));
  guarded.get('/admin', requireAdmin(h.services), (c) => c.json(c.get('principal')));
  svc = (await createServiceAccount(h.services, { name: 'crawler', expiresAt: null, createdBy: 'master' })).key;
  await createAccount(h.services, { email: 'Boss@Example.com', roles: ['administrator', 'developer'] }, 'master');
  adminDev = (await createPersonalKey(h.services, 'boss@example.com', null, 'master')).key;
  await createAccount(h.services, { email: 'dev@example.com', roles: ['developer'] }, 'master');
  plain = (await createPersonalKey(h.services, 'dev@example.com', null, 'master')).key;
});

describe('401: no valid credential', () => {
  for (const [what, header] of [
    ['missing header', undefined],
    ['empty header', ''],
    ['another scheme', `Basic ${btoa('user:pass')}`],
    ['Bearer without a token', 'Bearer'],
    ['Bearer with two tokens', 'Bearer abc def'],
    ['unknown service-account key', 'Bearer svcsa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['unknown personal key', 'Bearer pk_nope'],
    ['a master key of the right length but wrong', `Bearer ${MASTER_KEY.replace(/.$/, 'x')}`],
  ] as const) {
    test(what, async () => {
      for (const path of ['/svc', '/personal', '/admin']) {
        const res = await get(path, header);
        assert.equal(res.status, 401, path);
        assert.equal(typeof res.body.detail, 'string');
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      }
    });
  }

  test('a revoked key', async () => {
    const issued = await createPersonalKey(h.services, 'dev@example.com', null, 'master');
    assert.equal((await get('/personal', `Bearer ${issued.key}`)).status, 200);
    assert.equal((await h.admin('DELETE', `/api/admin/keys/${issued.id}`)).status, 200);
    const res = await get('/personal', `Bearer ${issued.key}`);
    assert.equal(res.status, 401);
    assert.equal(res.body.detail, 'API key has been revoked');
  });

  test('an expired key, valid until its expiry instant', async () => {
    const expiresAt = h.now() + 60_000;
    const issued = await createPersonalKey(h.services, 'dev@example.com', expiresAt, 'master');
    h.setNow(expiresAt - 1);
    assert.equal((await get('/personal', `Bearer ${issued.key}`)).status, 200);
    h.setNow(expiresAt);
    const res = await get('/personal', `Bearer ${issued.key}`);
    assert.equal(res.status, 401);
    assert.equal(res.body.detail, 'API key has expired');
    h.setNow(Date.parse('2026-06-01T00:00:00.000Z'));
  });

  test('a key one character off a key that just authenticated (its digest is kept) is refused', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await get('/svc', `Bearer ${svc}`)).status, 200);
    const near = svc.slice(0, -1) + (svc.endsWith('A') ? 'B' : 'A');
    const res = await get('/svc', `Bearer ${near}`);
    assert.equal(res.status, 401);
    assert.equal(res.body.detail, 'Invalid API key');
    assert.equal((await get('/svc', `Bearer ${svc}`)).status, 200);
  });

  test('a key refused once it expires, after many successful requests', async () => {
    const expiresAt = h.now() + 60_000;
    const issued = await createPersonalKey(h.services, 'dev@example.com', expiresAt, 'master');
    for (let i = 0; i < 5; i++) assert.equal((await get('/personal', `Bearer ${issued.key}`)).status, 200);
    h.setNow(expiresAt);
    assert.equal((await get('/personal', `Bearer ${issued.key}`)).body.detail, 'API key has expired');
    h.setNow(Date.parse('2026-06-01T00:00:00.000Z'));
  });

  test('a key of a deleted account', async () => {
    await createAccount(h.services, { email: 'gone@example.com' }, 'master');
    const issued = await createPersonalKey(h.services, 'gone@example.com', null, 'master');
    assert.equal((await h.admin('DELETE', '/api/admin/accounts/gone@example.com')).status, 200);
    assert.equal((await get('/personal', `Bearer ${issued.key}`)).status, 401);
  });
});

describe('403: a valid key of the wrong kind', () => {
  test('the Indexing API refuses personal keys and the master key', async () => {
    for (const key of [plain, adminDev, MASTER_KEY]) {
      const res = await get('/svc', `Bearer ${key}`);
      assert.equal(res.status, 403);
      assert.equal(typeof res.body.detail, 'string');
    }
  });
  test('personal endpoints refuse service-account keys and the master key', async () => {
    for (const key of [svc, MASTER_KEY]) assert.equal((await get('/personal', `Bearer ${key}`)).status, 403);
  });
  test('admin endpoints refuse service-account keys and accounts without the administrator role', async () => {
    for (const key of [svc, plain]) assert.equal((await get('/admin', `Bearer ${key}`)).status, 403);
  });
});

describe('the principal handed to handlers', () => {
  test('service-account key', async () => {
    const res = await get('/svc', `Bearer ${svc}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'service_account');
    assert.equal(res.body.name, 'crawler');
  });
  test('personal key: the account email, normalised', async () => {
    const res = await get('/personal', `bearer   ${adminDev}`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      [res.body.kind, res.body.email, res.body.roles],
      ['account', 'boss@example.com', ['administrator', 'developer']],
    );
  });
  test('master key and administrator account on admin endpoints', async () => {
    assert.deepEqual((await get('/admin', `Bearer ${MASTER_KEY}`)).body, { kind: 'master' });
    assert.equal((await get('/admin', `Bearer ${adminDev}`)).body.email, 'boss@example.com');
  });
});

test('constantTimeEqual compares by content and length', () => {
  const a = Uint8Array.from([1, 2, 3, 4]);
  assert.equal(constantTimeEqual(a, Uint8Array.from([1, 2, 3, 4])), true);
  assert.equal(constantTimeEqual(a, Uint8Array.from([1, 2, 3, 5])), false);
  assert.equal(constantTimeEqual(a, Uint8Array.from([0, 2, 3, 4])), false);
  assert.equal(constantTimeEqual(a, Uint8Array.from([1, 2, 3])), false);
  assert.equal(constantTimeEqual(new Uint8Array(), new Uint8Array()), true);
});
