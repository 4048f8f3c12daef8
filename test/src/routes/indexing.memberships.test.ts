/** Indexing API memberships: exactly-one rule (422), 404s, duplicates and cycles (409 with the path), delete rows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexingFixture } from '../../support/controlplane.ts';

async function world() {
  const f = await indexingFixture();
  await f.call('POST', '/datasources', { name: 'ds', display_name: 'DS' });
  await f.call('POST', '/users', { datasource: 'ds', user: { email: 'a@x.com' } });
  for (const name of ['a', 'b', 'c', 'd']) await f.call('POST', '/groups', { datasource: 'ds', group: { name } });
  const add = (membership: Record<string, unknown>) => f.call('POST', '/memberships', { datasource: 'ds', membership });
  return { ...f, add };
}

test('POST /memberships adds a user or a nested group', async () => {
  const f = await world();
  const user = await f.add({ group_name: 'a', member_email: ' A@X.COM' });
  assert.equal(user.status, 200);
  assert.deepEqual(user.body, {
    datasource: 'ds',
    membership: { group_name: 'a', member_type: 'user', member_email: 'a@x.com' },
  });
  const group = await f.add({ group_name: 'a', member_group_name: 'b' });
  assert.equal(group.status, 200);
  assert.deepEqual(group.body, {
    datasource: 'ds',
    membership: { group_name: 'a', member_type: 'group', member_group_name: 'b' },
  });
});

test('POST /memberships: not exactly one of member_email and member_group_name is 422 at body.membership', async () => {
  const f = await world();
  for (const m of [
    { group_name: 'a' },
    { group_name: 'a', member_email: 'a@x.com', member_group_name: 'b' },
    { group_name: 'a', member_email: ' ', member_group_name: null },
  ]) {
    const res = await f.add(m);
    assert.equal(res.status, 422, JSON.stringify(m));
    assert.deepEqual(res.body, {
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'membership'],
          msg: 'Value error, exactly one of member_email and member_group_name must be set',
          input: m,
          ctx: { error: {} },
        },
      ],
    });
  }
  const noGroup = await f.add({ member_email: 'a@x.com' });
  assert.equal(noGroup.status, 422);
  assert.deepEqual(
    noGroup.body.detail.map((i: any) => [i.type, i.loc]),
    [['missing', ['body', 'membership', 'group_name']]],
  );
});

test('POST /memberships: 404 datasource, parent group, referenced user or member group missing', async () => {
  const f = await world();
  const cases: [string, Record<string, unknown>, string][] = [
    ['nope', { group_name: 'a', member_email: 'a@x.com' }, "Datasource 'nope' not found"],
    ['ds', { group_name: 'zz', member_email: 'a@x.com' }, "Group 'zz' not found in datasource 'ds'"],
    ['ds', { group_name: 'a', member_email: 'ghost@x.com' }, "User 'ghost@x.com' not found in datasource 'ds'"],
    ['ds', { group_name: 'a', member_group_name: 'zz' }, "Group 'zz' not found in datasource 'ds'"],
  ];
  for (const [datasource, membership, detail] of cases) {
    const res = await f.call('POST', '/memberships', { datasource, membership });
    assert.equal(res.status, 404, detail);
    assert.deepEqual(res.body, { detail });
  }
});

test('POST /memberships: 409 for an existing membership', async () => {
  const f = await world();
  await f.add({ group_name: 'a', member_email: 'a@x.com' });
  await f.add({ group_name: 'a', member_group_name: 'b' });
  const u = await f.add({ group_name: 'a', member_email: 'A@x.com' });
  assert.equal(u.status, 409);
  assert.deepEqual(u.body, { detail: "User 'a@x.com' in group 'a' already exists in datasource 'ds'" });
  const g = await f.add({ group_name: 'a', member_group_name: 'b' });
  assert.equal(g.status, 409);
  assert.deepEqual(g.body, { detail: "Group 'b' in group 'a' already exists in datasource 'ds'" });
});

test('POST /memberships: 409 naming the cycle a group edge would close', async () => {
  const f = await world();
  assert.equal((await f.add({ group_name: 'a', member_group_name: 'b' })).status, 200);
  assert.equal((await f.add({ group_name: 'b', member_group_name: 'c' })).status, 200);
  const cycle = await f.add({ group_name: 'c', member_group_name: 'a' });
  assert.equal(cycle.status, 409);
  assert.deepEqual(cycle.body, { detail: "Adding group 'a' to group 'c' would create a cycle: c -> a -> b -> c" });
  const self = await f.add({ group_name: 'd', member_group_name: 'd' });
  assert.equal(self.status, 409);
  assert.deepEqual(self.body, { detail: "Adding group 'd' to group 'd' would create a cycle: d -> d" });
  assert.equal((await f.add({ group_name: 'a', member_group_name: 'c' })).status, 200, 'a shortcut edge is no cycle');
  assert.equal((await f.add({ group_name: 'd', member_group_name: 'a' })).status, 200);
});

test('DELETE /memberships/{datasource}/{group}/{member_type}/{member_id} removes it', async () => {
  const f = await world();
  await f.add({ group_name: 'a', member_email: 'a@x.com' });
  await f.add({ group_name: 'a', member_group_name: 'b' });
  const u = await f.call('DELETE', '/memberships/ds/a/user/A%40X.com');
  assert.equal(u.status, 200);
  assert.deepEqual(u.body, {
    datasource: 'ds',
    membership: { group_name: 'a', member_type: 'user', member_email: 'a@x.com' },
    deleted: true,
  });
  const g = await f.call('DELETE', '/memberships/ds/a/group/b');
  assert.equal(g.status, 200);
  assert.deepEqual(g.body, {
    datasource: 'ds',
    membership: { group_name: 'a', member_type: 'group', member_group_name: 'b' },
    deleted: true,
  });
  assert.deepEqual((await f.call('GET', '/groups/ds')).body.groups[0], {
    name: 'a',
    member_emails: [],
    member_groups: [],
  });
});

test('DELETE /memberships: 400 unknown member_type, 404 for each missing piece', async () => {
  const f = await world();
  await f.add({ group_name: 'a', member_email: 'a@x.com' });
  const bad = await f.call('DELETE', '/memberships/ds/a/robot/x');
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, { detail: "member_type must be 'user' or 'group', got 'robot'" });
  const cases: [string, string][] = [
    ['/memberships/nope/a/user/a@x.com', "Datasource 'nope' not found"],
    ['/memberships/ds/zz/user/a@x.com', "Group 'zz' not found in datasource 'ds'"],
    ['/memberships/ds/a/user/ghost@x.com', "User 'ghost@x.com' not found in datasource 'ds'"],
    ['/memberships/ds/a/group/zz', "Group 'zz' not found in datasource 'ds'"],
    ['/memberships/ds/a/group/b', "Group 'b' in group 'a' not found in datasource 'ds'"],
    ['/memberships/ds/b/user/a@x.com', "User 'a@x.com' in group 'b' not found in datasource 'ds'"],
  ];
  for (const [path, detail] of cases) {
    const res = await f.call('DELETE', path);
    assert.equal(res.status, 404, path);
    assert.deepEqual(res.body, { detail });
  }
});
