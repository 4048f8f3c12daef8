/**
 * The audit log through the API: every administrative change is recorded once with the right
 * actor, action, target and address, never with a secret; sign-ins and failed sign-ins too;
 * filters, the JSON-lines export, administrators only, and records survive a restart.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AuditLog } from '../../../src/audit/audit.ts';
import { silentLogger } from '../../../src/log.ts';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { HttpBrowser, webServer, type WebServer } from '../../support/web.ts';

let s: WebServer;
let dir: string;
let audit: AuditLog;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-'));
  audit = new AuditLog({ dir, log: silentLogger, now: () => Date.now(), retentionDays: 30 });
  s = await webServer({ services: { audit } });
});
after(async () => {
  await s.close();
  await audit.close();
  await rm(dir, { recursive: true, force: true });
});

const records = async (query = '') => (await s.call('GET', `/api/admin/audit${query}`, MASTER)).body.records;

test('account, password, key and service-account changes are recorded with the actor, never the secrets', async () => {
  const admin = await s.person('root@example.com', { roles: ['administrator', 'developer'] });
  await s.call('POST', '/api/admin/accounts', admin.key, { email: 'new@example.com', roles: ['developer'] });
  await s.call('PUT', '/api/admin/accounts/new@example.com/password', admin.key, { password: 'secret passphrase 42' });
  const key = await s.call('POST', '/api/admin/accounts/new@example.com/keys', admin.key, {});
  const sa = await s.call('POST', '/api/admin/service-accounts', admin.key, { name: 'audited-connector' });
  await s.call('DELETE', `/api/admin/keys/${key.body.id}`, MASTER);

  const mine = await records('?actor=root@example.com');
  assert.deepEqual(
    mine.map((r: { action: string; target: string }) => [r.action, r.target]),
    [
      ['service_account.create', 'audited-connector'],
      ['key.create', 'new@example.com'],
      ['account.password_set', 'new@example.com'],
      ['account.create', 'new@example.com'],
    ],
  );
  const keyRecord = mine.find((r: { action: string }) => r.action === 'key.create');
  assert.equal(keyRecord.details.result.id, key.body.id);
  assert.match(keyRecord.request_id, /^[0-9a-f-]{36}$/);
  const all = JSON.stringify(await records());
  assert.doesNotMatch(all, /secret passphrase 42/);
  assert.doesNotMatch(all, new RegExp(key.body.key));
  assert.doesNotMatch(all, new RegExp(sa.body.key));
  const revoked = await records('?action=key.revoke');
  assert.equal(revoked[0].actor, 'master');
  assert.equal(revoked[0].target, key.body.id);
});

test('control-plane changes of the Indexing API are recorded as the service account', async () => {
  await s.api('POST', '/datasources', { name: 'hr', display_name: 'HR', subs: [{ name: 'Payroll' }] });
  await s.api('POST', '/users', { datasource: 'hr', user: { email: 'ann@example.com' } });
  await s.api('POST', '/groups', { datasource: 'hr', group: { name: 'team' } });
  await s.api('POST', '/memberships', {
    datasource: 'hr',
    membership: { group_name: 'team', member_email: 'ann@example.com' },
  });
  await s.api('POST', '/groups', { datasource: 'hr', group: { name: 'svcbad' } }); // refused: not recorded
  await s.api('POST', '/documents', {
    documents: {
      datasource: 'hr',
      id: 'd1',
      title: 'x',
      file_type: 'wiki',
      body: { mime_type: 'text/plain', text_content: 'y' },
    },
  });
  const got = await records('?target=hr');
  assert.deepEqual(
    got.map((r: { action: string; target: string }) => [r.action, r.target]),
    [
      ['membership.create', 'hr/team/user:ann@example.com'],
      ['group.create', 'hr/team'],
      ['user.create', 'hr/ann@example.com'],
      ['datasource.create', 'hr'],
    ],
  );
  assert.match(got[0].actor, /^service-account:/);
});

test('sign-ins and failed sign-ins are recorded; the password never is', async () => {
  const p = await s.person('sue@example.com');
  const b = new HttpBrowser(s.base);
  await b.signIn(p.email, 'a wrong password here');
  await b.signIn(p.email, p.password);
  const got = await records('?action=signin.&target=sue@example.com');
  assert.deepEqual(
    got.map((r: { action: string }) => r.action),
    ['signin.password', 'signin.failed'],
  );
  assert.equal(got[1].details.reason, 'wrong email or password');
  assert.equal(got[0].address, '127.0.0.1', 'the client address of a real connection');
  assert.doesNotMatch(JSON.stringify(got), /a wrong password here|correct horse/);
});

test('filters by time, limit; export as JSON lines; administrators only', async () => {
  assert.equal((await records('?limit=2')).length, 2);
  assert.deepEqual(await records('?to=2000-01-01T00:00:00Z'), []);
  const bad = await s.call('GET', '/api/admin/audit?limit=0', MASTER);
  assert.equal(bad.status, 422);
  const res = await fetch(`${s.base}/api/admin/audit/export`, { headers: { authorization: `Bearer ${MASTER}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /application\/x-ndjson/);
  const lines = (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(lines.length >= 10);
  assert.ok(
    lines.every((l, i) => i === 0 || l.at >= lines[i - 1].at),
    'oldest first',
  );
  const plain = await s.person('plain@example.com');
  assert.equal((await s.call('GET', '/api/admin/audit', plain.key)).status, 403);
});

test('records survive a restart', async () => {
  await audit.close();
  const reopened = new AuditLog({ dir, log: silentLogger, now: () => Date.now(), retentionDays: 30 });
  const got = await reopened.query({ fromMs: 0, toMs: Date.now(), limit: 1000 });
  assert.ok(got.some((r) => r.action === 'account.create' && r.target === 'new@example.com'));
  await reopened.close();
  audit = new AuditLog({ dir, log: silentLogger, now: () => Date.now(), retentionDays: 30 });
});
