/** Indexing API users: normalised emails and the spec's 400/404/409 rows for POST/PUT, plus list and delete. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexingFixture } from '../../support/controlplane.ts';

async function withDatasource() {
  const f = await indexingFixture();
  assert.equal((await f.call('POST', '/datasources', { name: 'ds', display_name: 'DS' })).status, 200);
  return f;
}

test('POST /users creates a user with a trimmed, lowercased email', async () => {
  const f = await withDatasource();
  const res = await f.call('POST', '/users', {
    datasource: 'ds',
    user: { email: '  Alice@Example.COM ', name: 'Alice' },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { datasource: 'ds', user: { email: 'alice@example.com', name: 'Alice' } });
  const noName = await f.call('POST', '/users', { datasource: 'ds', user: { email: 'bob@example.com' } });
  assert.deepEqual(noName.body, { datasource: 'ds', user: { email: 'bob@example.com', name: null } });
  const list = await f.call('GET', '/users/ds');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, {
    datasource: 'ds',
    users: [
      { email: 'alice@example.com', name: 'Alice' },
      { email: 'bob@example.com', name: null },
    ],
  });
});

test('POST /users: 400 email missing or empty after normalisation', async () => {
  const f = await withDatasource();
  for (const user of [{}, { email: '' }, { email: '   ' }, { email: null }]) {
    const res = await f.call('POST', '/users', { datasource: 'ds', user });
    assert.equal(res.status, 400, JSON.stringify(user));
    assert.deepEqual(res.body, { detail: 'User email must not be empty' });
  }
});

test('POST /users: 404 datasource missing, 409 same normalised email', async () => {
  const f = await withDatasource();
  const missing = await f.call('POST', '/users', { datasource: 'nope', user: { email: 'a@x.com' } });
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { detail: "Datasource 'nope' not found" });
  assert.equal((await f.call('POST', '/users', { datasource: 'ds', user: { email: 'a@x.com' } })).status, 200);
  const dup = await f.call('POST', '/users', { datasource: 'ds', user: { email: ' A@X.com' } });
  assert.equal(dup.status, 409);
  assert.deepEqual(dup.body, { detail: "User 'a@x.com' already exists in datasource 'ds'" });
});

test('POST /users: wrong shapes are 422 with body locs', async () => {
  const f = await withDatasource();
  const res = await f.call('POST', '/users', { user: { email: 7 } });
  assert.equal(res.status, 422);
  assert.deepEqual(
    res.body.detail.map((i: any) => [i.type, i.loc]),
    [
      ['missing', ['body', 'datasource']],
      ['string_type', ['body', 'user', 'email']],
    ],
  );
});

test('PUT /users/{datasource}/{email} updates the name; lookups are case-insensitive', async () => {
  const f = await withDatasource();
  await f.call('POST', '/users', { datasource: 'ds', user: { email: 'a@x.com', name: 'A' } });
  const res = await f.call('PUT', `/users/ds/${encodeURIComponent(' A@X.COM ')}`, { name: 'Anna' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { datasource: 'ds', user: { email: 'a@x.com', name: 'Anna' } });
  const cleared = await f.call('PUT', '/users/ds/a@x.com', { name: null });
  assert.deepEqual(cleared.body.user, { email: 'a@x.com', name: null });
  const noBody = await f.call('PUT', '/users/ds/a@x.com', {});
  assert.equal(noBody.status, 422);
  assert.deepEqual(
    noBody.body.detail.map((i: any) => [i.type, i.loc]),
    [['missing', ['body', 'name']]],
  );
});

test('PUT /users: 400 empty email path parameter, 404 datasource or user missing', async () => {
  const f = await withDatasource();
  const empty = await f.call('PUT', '/users/ds/%20%20', { name: 'x' });
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.body, { detail: 'User email must not be empty' });
  const noDs = await f.call('PUT', '/users/nope/a@x.com', { name: 'x' });
  assert.equal(noDs.status, 404);
  assert.deepEqual(noDs.body, { detail: "Datasource 'nope' not found" });
  const noUser = await f.call('PUT', '/users/ds/ghost@x.com', { name: 'x' });
  assert.equal(noUser.status, 404);
  assert.deepEqual(noUser.body, { detail: "User 'ghost@x.com' not found in datasource 'ds'" });
});

test('DELETE /users/{datasource}/{email} removes the user and its memberships', async () => {
  const f = await withDatasource();
  await f.call('POST', '/users', { datasource: 'ds', user: { email: 'a@x.com' } });
  await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'g' } });
  await f.call('POST', '/memberships', { datasource: 'ds', membership: { group_name: 'g', member_email: 'a@x.com' } });
  const res = await f.call('DELETE', '/users/ds/A@x.com');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    datasource: 'ds',
    user: { email: 'a@x.com', name: null },
    deleted: true,
    memberships_removed: 1,
  });
  assert.deepEqual((await f.call('GET', '/groups/ds')).body.groups, [
    { name: 'g', member_emails: [], member_groups: [] },
  ]);
  const again = await f.call('DELETE', '/users/ds/a@x.com');
  assert.equal(again.status, 404);
  assert.equal((await f.call('DELETE', '/users/nope/a@x.com')).status, 404);
  assert.equal((await f.call('DELETE', '/users/ds/%20')).status, 400);
  assert.equal((await f.call('GET', '/users/nope')).status, 404);
});
