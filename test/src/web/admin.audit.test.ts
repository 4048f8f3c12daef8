/**
 * Every change the dashboard makes (with the administrator's session and CSRF token, as its
 * browser module does) is in the audit log once, with the administrator as the actor, the action
 * and target of the API route, and never a secret; refused changes leave no record.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { adminServer, Dashboard, type AdminServer } from './admin-kit.ts';

let a: AdminServer;
let root: Dashboard;
/** The files connector's folder: empty. */
let folder: string;

before(async () => {
  a = await adminServer({
    env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODELS: 'm1' },
    connectors: true,
    commitIntervalMs: 10,
  });
  root = await Dashboard.signIn(a.s.base, a.root);
  folder = await mkdtemp(join(tmpdir(), 'admin-audit-files-'));
});
after(async () => {
  await a.close();
  await rm(folder, { recursive: true, force: true });
});

test('each dashboard change is recorded with the administrator as the actor, without secrets', async () => {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await root.call(method, path, body);
    assert.equal(res.status < 300, true, `${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  await ok('POST', '/api/indexing/datasources', { name: 'wiki', display_name: 'Wiki' });
  await ok('PUT', '/api/indexing/datasources/wiki', { display_name: 'Company wiki' });
  await ok('POST', '/api/indexing/datasources/wiki/subs', { name: 'HR' });
  await ok('DELETE', '/api/indexing/datasources/wiki/subs/hr');
  await ok('POST', '/api/indexing/users', { datasource: 'wiki', user: { email: 'ada@example.com', name: null } });
  await ok('PUT', '/api/indexing/users/wiki/ada%40example.com', { name: 'Ada' });
  await ok('POST', '/api/indexing/groups', { datasource: 'wiki', group: { name: 'staff' } });
  await ok('PUT', '/api/indexing/groups/wiki/staff', { group_name: 'team' });
  await ok('POST', '/api/indexing/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'team', member_email: 'ada@example.com' },
  });
  await ok('DELETE', '/api/indexing/memberships/wiki/team/user/ada%40example.com');
  await ok('DELETE', '/api/indexing/groups/wiki/team');
  await ok('DELETE', '/api/indexing/users/wiki/ada%40example.com');
  await ok('POST', '/api/admin/accounts', { email: 'bea@example.com', name: null, roles: [] });
  await ok('PUT', '/api/admin/accounts/bea%40example.com/roles', { roles: ['developer'] });
  await ok('PUT', '/api/admin/accounts/bea%40example.com/password', { password: 'a secret passphrase' });
  const link = await ok('POST', '/api/admin/accounts/bea%40example.com/sign-in-links', {});
  await ok('DELETE', '/api/admin/accounts/bea%40example.com/sessions');
  const key = await ok('POST', '/api/admin/accounts/bea%40example.com/keys', { expires_at: null });
  await ok('PUT', `/api/admin/keys/${key.id}/expiry`, { expires_at: '2099-01-01T00:00:00.000Z' });
  await ok('DELETE', `/api/admin/keys/${key.id}`);
  await ok('DELETE', '/api/admin/accounts/bea%40example.com');
  const sa = await ok('POST', '/api/admin/service-accounts', { name: 'importer', expires_at: null });
  const agent = await ok('POST', '/api/admin/agents', { name: 'Helper' });
  await ok('PATCH', `/api/admin/agents/${agent.id}`, { name: 'Helper 2' });
  await ok('DELETE', `/api/admin/agents/${agent.id}`);
  await ok('POST', '/api/admin/settings/check', { target: 'llm' });
  const conn = await ok('POST', '/api/admin/connectors', {
    name: 'Drive',
    type: 'fileshares',
    datasource: 'wiki',
    interval_minutes: null,
    settings: { root: folder },
  });
  await ok('POST', `/api/admin/connectors/${conn.id}/run`);
  await a.s.services.connectors!.whenIdle(conn.id);
  await ok('POST', `/api/admin/connectors/${conn.id}/pause`);
  await ok('POST', `/api/admin/connectors/${conn.id}/resume`);
  await a.s.services.connectors!.whenIdle(conn.id);
  await ok('DELETE', `/api/admin/connectors/${conn.id}`);
  await ok('DELETE', '/api/indexing/datasources/wiki');
  // Refused: a duplicate and a cycle-free but unknown group; neither is recorded.
  assert.equal((await root.call('POST', '/api/admin/accounts', { email: 'root@example.com' })).status, 409);
  assert.equal(
    (await root.call('POST', '/api/indexing/groups', { datasource: 'gone', group: { name: 'x' } })).status,
    404,
  );

  const records = (
    await a.s.call('GET', '/api/admin/audit?actor=root@example.com&limit=1000', MASTER)
  ).body.records.reverse();
  assert.deepEqual(
    records
      .filter((r: { action: string }) => !r.action.startsWith('signin'))
      .map((r: { action: string; target: string }) => [r.action, r.target]),
    [
      ['datasource.create', 'wiki'],
      ['datasource.update', 'wiki'],
      ['sub.create', 'wiki/HR'],
      ['sub.delete', 'wiki/hr'],
      ['user.create', 'wiki/ada@example.com'],
      ['user.update', 'wiki/ada@example.com'],
      ['group.create', 'wiki/staff'],
      ['group.rename', 'wiki/staff'],
      ['membership.create', 'wiki/team/user:ada@example.com'],
      ['membership.delete', 'wiki/team/user:ada@example.com'],
      ['group.delete', 'wiki/team'],
      ['user.delete', 'wiki/ada@example.com'],
      ['account.create', 'bea@example.com'],
      ['account.roles', 'bea@example.com'],
      ['account.password_set', 'bea@example.com'],
      ['account.sign_in_link', 'bea@example.com'],
      ['account.sessions_end', 'bea@example.com'],
      ['key.create', 'bea@example.com'],
      ['key.expiry', key.id],
      ['key.revoke', key.id],
      ['account.delete', 'bea@example.com'],
      ['service_account.create', 'importer'],
      ['agent.create', 'Helper'],
      ['agent.update', agent.id],
      ['agent.delete', agent.id],
      ['settings.check', 'llm'],
      ['connector.create', 'Drive'],
      ['connector.run', conn.id],
      ['connector.pause', conn.id],
      ['connector.resume', conn.id],
      ['connector.delete', conn.id],
      ['datasource.delete', 'wiki'],
    ],
  );
  for (const r of records) assert.equal(r.address, '127.0.0.1');
  const text = JSON.stringify(records);
  for (const secret of ['a secret passphrase', key.key, sa.key, link.url.split('/').pop()])
    assert.ok(!text.includes(secret));
});
