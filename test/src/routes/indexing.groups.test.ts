/** Indexing API groups: name rules (400), 404/409 rows, rename with memberships following, list and delete. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexingFixture } from '../../support/controlplane.ts';

async function withDatasource() {
  const f = await indexingFixture();
  assert.equal((await f.call('POST', '/datasources', { name: 'ds', display_name: 'DS' })).status, 200);
  return f;
}

test('POST /groups creates a group', async () => {
  const f = await withDatasource();
  const res = await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'Engineering-EU' } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { datasource: 'ds', group: { name: 'Engineering-EU' } });
  const ok = await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'sv' } });
  assert.equal(ok.status, 200, 'only the full prefix svc is reserved');
});

test('POST /groups: 400 for whitespace, the reserved svc prefix (any case) and empty names', async () => {
  const f = await withDatasource();
  const cases: [string, string][] = [
    ['two words', "Group name 'two words' must not contain whitespace"],
    ['tab\there', "Group name 'tab\there' must not contain whitespace"],
    [' lead', "Group name ' lead' must not contain whitespace"],
    ['svc_admins', "Group name 'svc_admins' must not start with the reserved prefix 'svc'"],
    ['SVCteam', "Group name 'SVCteam' must not start with the reserved prefix 'svc'"],
    ['Svc', "Group name 'Svc' must not start with the reserved prefix 'svc'"],
    ['', 'Group name must not be empty'],
  ];
  for (const [name, detail] of cases) {
    const res = await f.call('POST', '/groups', { datasource: 'ds', group: { name } });
    assert.equal(res.status, 400, name);
    assert.deepEqual(res.body, { detail });
  }
});

test('POST /groups: 404 datasource missing, 409 duplicate, 422 missing name', async () => {
  const f = await withDatasource();
  const noDs = await f.call('POST', '/groups', { datasource: 'nope', group: { name: 'g' } });
  assert.equal(noDs.status, 404);
  assert.deepEqual(noDs.body, { detail: "Datasource 'nope' not found" });
  await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'g' } });
  const dup = await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'g' } });
  assert.equal(dup.status, 409);
  assert.deepEqual(dup.body, { detail: "Group 'g' already exists in datasource 'ds'" });
  const missing = await f.call('POST', '/groups', { datasource: 'ds', group: {} });
  assert.equal(missing.status, 422);
  assert.deepEqual(
    missing.body.detail.map((i: any) => [i.type, i.loc]),
    [['missing', ['body', 'group', 'name']]],
  );
});

test('PUT /groups/{datasource}/{group_name} renames; memberships follow', async () => {
  const f = await withDatasource();
  await f.call('POST', '/users', { datasource: 'ds', user: { email: 'a@x.com' } });
  for (const name of ['old', 'parent', 'child']) await f.call('POST', '/groups', { datasource: 'ds', group: { name } });
  await f.call('POST', '/memberships', {
    datasource: 'ds',
    membership: { group_name: 'old', member_email: 'a@x.com' },
  });
  await f.call('POST', '/memberships', {
    datasource: 'ds',
    membership: { group_name: 'parent', member_group_name: 'old' },
  });
  await f.call('POST', '/memberships', {
    datasource: 'ds',
    membership: { group_name: 'old', member_group_name: 'child' },
  });
  const res = await f.call('PUT', '/groups/ds/old', { group_name: 'new' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { datasource: 'ds', group: { name: 'new' }, previous_name: 'old' });
  assert.deepEqual((await f.call('GET', '/groups/ds')).body, {
    datasource: 'ds',
    groups: [
      { name: 'child', member_emails: [], member_groups: [] },
      { name: 'new', member_emails: ['a@x.com'], member_groups: ['child'] },
      { name: 'parent', member_emails: [], member_groups: ['new'] },
    ],
  });
  const same = await f.call('PUT', '/groups/ds/new', { group_name: 'new' });
  assert.equal(same.status, 200, 'renaming to the same name is a no-op');
});

test('PUT /groups: 400 bad new name, 404 datasource or group missing, 409 new name taken', async () => {
  const f = await withDatasource();
  await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'a' } });
  await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'b' } });
  const bad = await f.call('PUT', '/groups/ds/a', { group_name: 'svcX' });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, { detail: "Group name 'svcX' must not start with the reserved prefix 'svc'" });
  const ws = await f.call('PUT', '/groups/ds/a', { group_name: 'a b' });
  assert.equal(ws.status, 400);
  const noDs = await f.call('PUT', '/groups/nope/a', { group_name: 'c' });
  assert.equal(noDs.status, 404);
  assert.deepEqual(noDs.body, { detail: "Datasource 'nope' not found" });
  const noGroup = await f.call('PUT', '/groups/ds/zzz', { group_name: 'c' });
  assert.equal(noGroup.status, 404);
  assert.deepEqual(noGroup.body, { detail: "Group 'zzz' not found in datasource 'ds'" });
  const taken = await f.call('PUT', '/groups/ds/a', { group_name: 'b' });
  assert.equal(taken.status, 409);
  assert.deepEqual(taken.body, { detail: "Group 'b' already exists in datasource 'ds'" });
  const wrongField = await f.call('PUT', '/groups/ds/a', { name: 'c' });
  assert.equal(wrongField.status, 422);
  assert.deepEqual(wrongField.body.detail.map((i: any) => [i.type, i.loc]).sort(), [
    ['extra_forbidden', ['body', 'name']],
    ['missing', ['body', 'group_name']],
  ]);
});

test('DELETE /groups/{datasource}/{group_name} removes the group and every membership that names it', async () => {
  const f = await withDatasource();
  await f.call('POST', '/users', { datasource: 'ds', user: { email: 'a@x.com' } });
  for (const name of ['top', 'mid', 'low']) await f.call('POST', '/groups', { datasource: 'ds', group: { name } });
  await f.call('POST', '/memberships', {
    datasource: 'ds',
    membership: { group_name: 'top', member_group_name: 'mid' },
  });
  await f.call('POST', '/memberships', {
    datasource: 'ds',
    membership: { group_name: 'mid', member_group_name: 'low' },
  });
  await f.call('POST', '/memberships', {
    datasource: 'ds',
    membership: { group_name: 'mid', member_email: 'a@x.com' },
  });
  const res = await f.call('DELETE', '/groups/ds/mid');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { datasource: 'ds', group: { name: 'mid' }, deleted: true, memberships_removed: 3 });
  assert.deepEqual((await f.call('GET', '/groups/ds')).body.groups, [
    { name: 'low', member_emails: [], member_groups: [] },
    { name: 'top', member_emails: [], member_groups: [] },
  ]);
  assert.equal((await f.call('DELETE', '/groups/ds/mid')).status, 404);
  assert.equal((await f.call('DELETE', '/groups/nope/top')).status, 404);
  assert.equal((await f.call('GET', '/groups/nope')).status, 404);
});

test('group names with reserved URL characters work through percent-encoded path segments', async () => {
  const f = await withDatasource();
  assert.equal((await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'team/eng' } })).status, 200);
  const renamed = await f.call('PUT', `/groups/ds/${encodeURIComponent('team/eng')}`, { group_name: '50%+?' });
  assert.equal(renamed.status, 200);
  assert.deepEqual(renamed.body, { datasource: 'ds', group: { name: '50%+?' }, previous_name: 'team/eng' });
  const del = await f.call('DELETE', `/groups/ds/${encodeURIComponent('50%+?')}`);
  assert.equal(del.status, 200);
  assert.deepEqual((await f.call('GET', '/groups/ds')).body.groups, []);
});
