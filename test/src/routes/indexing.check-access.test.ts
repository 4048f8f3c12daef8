/** POST /api/indexing/documents/check-access: committed index only, transitive groups, reasons, 404/422. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;

before(async () => {
  h = await docsHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  for (const email of ['ann@x.org', 'bob@x.org', 'eve@x.org'])
    await h.api('POST', '/users', { datasource: 'wiki', user: { email } });
  for (const name of ['eng', 'platform', 'sre'])
    await h.api('POST', '/groups', { datasource: 'wiki', group: { name } });
  // ann in sre, sre in platform, platform in eng
  await h.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'sre', member_email: 'ann@x.org' },
  });
  await h.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'platform', member_group_name: 'sre' },
  });
  await h.api('POST', '/memberships', {
    datasource: 'wiki',
    membership: { group_name: 'eng', member_group_name: 'platform' },
  });
  await h.api('POST', '/documents', {
    documents: [
      doc({ id: 'public' }),
      doc({ id: 'for-eng', permissions: { allowed_groups: ['eng'] } }),
      doc({ id: 'for-bob', permissions: { allowed_users: [{ email: 'Bob@X.org' }] } }),
    ],
  });
  await h.commit();
});
after(() => h.close());

const check = (document_id: string, user_email: unknown, datasource = 'wiki') =>
  h.api('POST', '/documents/check-access', { datasource, document_id, user_email });

test('registered users see anonymous documents; unregistered users see nothing', async () => {
  const r = await check('public', 'eve@x.org');
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body).sort(), ['datasource', 'document_id', 'has_access', 'reason', 'user_email']);
  assert.equal(r.body.has_access, true);
  assert.match(r.body.reason, /anonymous/);
  const stranger = await check('public', 'zed@x.org');
  assert.equal(stranger.body.has_access, false);
  assert.match(stranger.body.reason, /not registered/);
});

test('group access is transitive and the reason names the path', async () => {
  const r = await check('for-eng', 'ANN@x.org');
  assert.equal(r.body.has_access, true);
  assert.equal(r.body.user_email, 'ann@x.org');
  assert.match(r.body.reason, /ann@x\.org -> sre -> platform -> eng/);
  const bob = await check('for-eng', 'bob@x.org');
  assert.equal(bob.body.has_access, false);
  assert.match(bob.body.reason, /'eng'/);
});

test('allowed users compare case-insensitively', async () => {
  assert.equal((await check('for-bob', 'bob@x.org')).body.has_access, true);
  assert.equal((await check('for-bob', 'ann@x.org')).body.has_access, false);
});

test('a document still queued is not found; a missing datasource is 404', async () => {
  await h.api('POST', '/documents', { documents: doc({ id: 'queued-only' }) });
  assert.equal((await check('queued-only', 'ann@x.org')).status, 404);
  assert.equal((await check('public', 'ann@x.org', 'nope')).status, 404);
  assert.equal((await check('never', 'ann@x.org')).status, 404);
});

test('a missing or empty user_email is 422', async () => {
  const missing = await h.api('POST', '/documents/check-access', { datasource: 'wiki', document_id: 'public' });
  assert.equal(missing.status, 422);
  assert.deepEqual(missing.body.detail[0].loc, ['body', 'user_email']);
  const empty = await check('public', '   ');
  assert.equal(empty.status, 422);
  assert.deepEqual(empty.body.detail[0].loc, ['body', 'user_email']);
});

test('permissions changed by a new push apply after the commit', async () => {
  await h.api('POST', '/documents', {
    documents: doc({
      id: 'for-bob',
      last_modified: '2026-03-01T00:00:00Z',
      permissions: { allowed_users: [{ email: 'ann@x.org' }] },
    }),
  });
  assert.equal((await check('for-bob', 'bob@x.org')).body.has_access, true, 'old version until the commit');
  await h.commit();
  assert.equal((await check('for-bob', 'bob@x.org')).body.has_access, false);
  assert.equal((await check('for-bob', 'ann@x.org')).body.has_access, true);
});

test('?wait=true answers after the commit', async () => {
  const w = await docsHarness({ commitIntervalMs: 50 });
  try {
    await w.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
    const r = await w.api('POST', '/documents?wait=true', { documents: doc({ id: 'waited' }) });
    assert.equal(r.status, 200);
    assert.equal(r.body.committed, true);
    assert.ok(w.index.reader.searcher().get('wiki:waited'));
    const bad = await w.api('POST', '/documents?wait=maybe', { documents: doc({ id: 'waited' }) });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['query', 'wait']);
  } finally {
    await w.close();
  }
});

test('?explain=true adds the explanation in parts; without it the answer is unchanged', async () => {
  const ask = (document_id: string, user_email: string, query = '?explain=true') =>
    h.api('POST', `/documents/check-access${query}`, { datasource: 'wiki', document_id, user_email });
  const viaGroups = await ask('for-eng', 'ann@x.org');
  assert.equal(viaGroups.body.has_access, true);
  assert.deepEqual(viaGroups.body.explanation, {
    registered: true,
    granted_by: 'group',
    group_path: ['ann@x.org', 'sre', 'platform', 'eng'],
    document: { anonymous: false, allowed_users: 0, allowed_groups: ['eng'] },
    user_groups: ['eng', 'platform', 'sre'],
  });
  const listed = await ask('for-bob', 'ann@x.org'); // re-pushed above for ann only
  assert.equal(listed.body.explanation.granted_by, 'user');
  assert.equal(listed.body.explanation.group_path, null);
  assert.equal((await ask('public', 'eve@x.org')).body.explanation.granted_by, 'anonymous');
  const refused = await ask('for-eng', 'bob@x.org');
  assert.equal(refused.body.has_access, false);
  assert.equal(refused.body.explanation.granted_by, null);
  assert.deepEqual(refused.body.explanation.user_groups, []);
  const stranger = await ask('public', 'zed@x.org');
  assert.equal(stranger.body.explanation.registered, false);
  const plain = await ask('for-eng', 'ann@x.org', '?explain=false');
  assert.deepEqual(Object.keys(plain.body).sort(), ['datasource', 'document_id', 'has_access', 'reason', 'user_email']);
  const bad = await ask('for-eng', 'ann@x.org', '?explain=perhaps');
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.detail[0].loc, ['query', 'explain']);
});
