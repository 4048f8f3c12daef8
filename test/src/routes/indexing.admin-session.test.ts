/**
 * The Indexing API's control plane, check-access and document status also take the browser session
 * of an account with the administrator role (the dashboard), never a personal key; a session
 * without the role is refused; pushing and deleting documents stay service-account-only.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { doc } from '../../support/documents.ts';
import { adminServer, Dashboard, type AdminServer } from '../web/admin-kit.ts';

let a: AdminServer;
let root: Dashboard;

before(async () => {
  a = await adminServer();
  await a.s.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  await a.s.api('POST', '/users', { datasource: 'wiki', user: { email: 'ada@example.com' } });
  await a.s.api('POST', '/documents', { documents: doc() });
  await a.s.commit();
  root = await Dashboard.signIn(a.s.base, a.root);
});
after(() => a.close());

test("an administrator's session reads and changes the control plane and checks access", async () => {
  assert.equal((await root.call('GET', '/api/indexing/datasources')).body.datasources[0].name, 'wiki');
  assert.equal(
    (await root.call('POST', '/api/indexing/groups', { datasource: 'wiki', group: { name: 'staff' } })).status,
    200,
  );
  assert.equal((await root.call('GET', '/api/indexing/file-types')).status, 200);
  const access = await root.call('POST', '/api/indexing/documents/check-access?explain=true', {
    datasource: 'wiki',
    document_id: 'doc-1',
    user_email: 'ada@example.com',
  });
  assert.equal(access.status, 200);
  assert.equal(access.body.explanation.granted_by, 'anonymous');
  assert.equal((await root.call('GET', '/api/indexing/documents/wiki/doc-1')).body.state, 'indexed');
});

test('documents are pushed and deleted only with a service-account key', async () => {
  const push = await root.call('POST', '/api/indexing/documents', { documents: doc({ id: 'doc-2' }) });
  assert.equal(push.status, 403);
  assert.equal(push.body.detail, 'The Indexing API accepts only service-account keys (svcsa_...)');
  assert.equal((await root.call('DELETE', '/api/indexing/documents/wiki/doc-1')).status, 403);
});

test("an administrator's personal key, and a session without the administrator role, are refused", async () => {
  const asKey = await a.s.call('GET', '/api/indexing/datasources', a.root.key);
  assert.equal(asKey.status, 403);
  assert.equal(asKey.body.detail, 'The Indexing API accepts only service-account keys (svcsa_...)');
  const dev = await a.s.person('dev@example.com', { roles: ['developer'] });
  const devSession = await Dashboard.signIn(a.s.base, dev);
  const refused = await devSession.call('GET', '/api/indexing/datasources');
  assert.equal(refused.status, 403);
  assert.match(refused.body.detail, /administrator role/);
  assert.equal(
    (
      await devSession.call('POST', '/api/indexing/documents/check-access', {
        datasource: 'wiki',
        document_id: 'doc-1',
        user_email: 'x@example.com',
      })
    ).status,
    403,
  );
});

test('a session that has ended is 401', async () => {
  const bea = await a.s.person('bea@example.com', { roles: ['administrator'] });
  const session = await Dashboard.signIn(a.s.base, bea);
  assert.equal((await session.call('GET', '/api/indexing/datasources')).status, 200);
  await a.s.call('DELETE', '/api/admin/accounts/bea@example.com/sessions', a.root.key);
  assert.equal((await session.call('GET', '/api/indexing/datasources')).status, 401);
});
