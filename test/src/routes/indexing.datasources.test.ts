/** Indexing API datasources and file types: bodies, status codes and envelopes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexingFixture } from '../../support/controlplane.ts';

const HR = {
  name: 'hr_wiki',
  display_name: 'HR Wiki',
  subs: [
    { name: 'Human Resources' },
    { name: 'Payroll', parent_key: 'human_resources' },
    { name: 'Engineering', key: 'eng' },
    { name: 'Payroll', parent_key: 'eng' },
  ],
  object_definitions: [
    {
      name: 'page',
      property_definitions: [
        { name: 'dept', display_label: 'Department', is_searchable: true, property_type: 'TEXT' },
        { name: 'year', display_label: 'Year', property_type: 'INTEGER' },
      ],
    },
  ],
};

test('POST /datasources creates the datasource with its sub tree (keys derived from names) and property schemas', async () => {
  const f = await indexingFixture();
  const res = await f.call('POST', '/datasources', HR);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    name: 'hr_wiki',
    display_name: 'HR Wiki',
    icon_base64: null,
    subs: [
      {
        key: 'human_resources',
        name: 'Human Resources',
        value: 'hr_wiki__human_resources',
        children: [
          {
            key: 'payroll',
            name: 'Payroll',
            parent_key: 'human_resources',
            value: 'hr_wiki__human_resources__payroll',
          },
        ],
      },
      {
        key: 'eng',
        name: 'Engineering',
        value: 'hr_wiki__eng',
        children: [{ key: 'payroll', name: 'Payroll', parent_key: 'eng', value: 'hr_wiki__eng__payroll' }],
      },
    ],
    object_definitions: [
      {
        name: 'page',
        property_definitions: [
          { name: 'dept', display_label: 'Department', is_searchable: true, property_type: 'TEXT' },
          { name: 'year', display_label: 'Year', is_searchable: false, property_type: 'INTEGER' },
        ],
      },
    ],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });
  const got = await f.call('GET', '/datasources/hr_wiki');
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, res.body);
  const list = await f.call('GET', '/datasources');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, { datasources: [res.body] });
});

test('a duplicate datasource name is 409 {detail}', async () => {
  const f = await indexingFixture();
  assert.equal((await f.call('POST', '/datasources', HR)).status, 200);
  const res = await f.call('POST', '/datasources', { name: 'hr_wiki', display_name: 'Again' });
  assert.equal(res.status, 409);
  assert.deepEqual(res.body, { detail: "Datasource 'hr_wiki' already exists" });
});

test('a name that is not a slug is 422 string_pattern_mismatch at body.name', async () => {
  const f = await indexingFixture();
  for (const name of ['Bad', 'has-hyphen', 'two  words', '1abc', 'a__b', 'trailing_', '']) {
    const res = await f.call('POST', '/datasources', { name, display_name: 'x' });
    assert.equal(res.status, 422, name);
    assert.deepEqual(res.body.detail, [
      {
        type: 'string_pattern_mismatch',
        loc: ['body', 'name'],
        msg: "String should match pattern '^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*$'",
        input: name,
        ctx: { pattern: '^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*$' },
      },
    ]);
  }
});

test('missing fields, wrong types and unknown fields are 422 items with body locs', async () => {
  const f = await indexingFixture();
  const res = await f.call('POST', '/datasources', { display_name: 5, colour: 'red' });
  assert.equal(res.status, 422);
  const byLoc = Object.fromEntries(res.body.detail.map((i: any) => [i.loc.join('.'), i]));
  assert.equal(byLoc['body.name'].type, 'missing');
  assert.equal(byLoc['body.display_name'].type, 'string_type');
  assert.equal(byLoc['body.colour'].type, 'extra_forbidden');
  for (const item of res.body.detail) assert.deepEqual(Object.keys(item).slice(0, 4), ['type', 'loc', 'msg', 'input']);

  const bad = await f.call('POST', '/datasources', {
    name: 'x',
    display_name: 'X',
    object_definitions: [{ name: 'page', property_definitions: [{ name: 'a', property_type: 'FLOAT' }] }],
  });
  assert.equal(bad.status, 422);
  const locs = bad.body.detail.map((i: any) => i.loc.join('.'));
  assert.deepEqual(locs.sort(), [
    'body.object_definitions.0.property_definitions.0.display_label',
    'body.object_definitions.0.property_definitions.0.property_type',
  ]);
  const pt = bad.body.detail.find((i: any) => i.loc.at(-1) === 'property_type');
  assert.equal(pt.type, 'literal_error');
});

test('sub tree rules on create: underivable key, unknown parent, child of a child, duplicates are 422', async () => {
  const f = await indexingFixture();
  const cases: [unknown[], string, RegExp][] = [
    [[{ name: '2024 Reports' }], 'body.subs.0.name', /cannot derive a sub key/],
    [[{ name: '!!!' }], 'body.subs.0.name', /cannot derive a sub key/],
    [[{ name: 'Payroll', parent_key: 'nope' }], 'body.subs.0.parent_key', /names no top-level sub/],
    [
      [{ name: 'A' }, { name: 'B', parent_key: 'a' }, { name: 'C', parent_key: 'b' }],
      'body.subs.2.parent_key',
      /a child cannot have children/,
    ],
    [[{ name: 'A' }, { name: 'a' }], 'body.subs.1.key', /duplicate sub key 'a'/],
    [
      [{ name: 'A' }, { name: 'B', parent_key: 'a' }, { name: 'b', parent_key: 'a' }],
      'body.subs.2.key',
      /duplicate sub key 'b' under 'a'/,
    ],
    [[{ name: 'X', key: 'Not-A-Slug' }], 'body.subs.0.key', /String should match pattern/],
  ];
  for (const [subs, loc, msg] of cases) {
    const res = await f.call('POST', '/datasources', { name: 'ds', display_name: 'DS', subs });
    assert.equal(res.status, 422, JSON.stringify(subs));
    assert.equal(res.body.detail.length, 1, JSON.stringify(res.body));
    assert.equal(res.body.detail[0].loc.join('.'), loc);
    assert.match(res.body.detail[0].msg, msg);
  }
  assert.equal((await f.call('GET', '/datasources/ds')).status, 404, 'nothing was created');
});

test('object definition consistency: duplicate names and conflicting property types are 422', async () => {
  const f = await indexingFixture();
  const p = (name: string, property_type: string) => ({ name, display_label: name, property_type });
  const res = await f.call('POST', '/datasources', {
    name: 'ds',
    display_name: 'DS',
    object_definitions: [
      { name: 'page', property_definitions: [p('a', 'TEXT'), p('a', 'TEXT')] },
      { name: 'page', property_definitions: [] },
      { name: 'ticket', property_definitions: [p('a', 'DATE')] },
    ],
  });
  assert.equal(res.status, 422);
  assert.deepEqual(
    res.body.detail.map((i: any) => i.loc.join('.')),
    [
      'body.object_definitions.0.property_definitions.1.name',
      'body.object_definitions.1.name',
      'body.object_definitions.2.property_definitions.0.name',
    ],
  );
});

test('object definitions keep fields the spec leaves open; icon_base64 must be Base64', async () => {
  const f = await indexingFixture();
  const ok = await f.call('POST', '/datasources', {
    name: 'ds',
    display_name: 'DS',
    icon_base64: 'iVBORw0KGgo=',
    object_definitions: [{ name: 'page', doc_category: 'KNOWLEDGE', property_definitions: [] }],
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.icon_base64, 'iVBORw0KGgo=');
  assert.deepEqual(ok.body.object_definitions, [{ name: 'page', doc_category: 'KNOWLEDGE', property_definitions: [] }]);
  const bad = await f.call('POST', '/datasources', { name: 'ds2', display_name: 'DS', icon_base64: 'not base64!' });
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.detail[0].loc, ['body', 'icon_base64']);
  assert.equal(bad.body.detail[0].type, 'value_error');
});

test('PUT /datasources/{name} changes only display_name, icon_base64 and object_definitions', async () => {
  const f = await indexingFixture();
  await f.call('POST', '/datasources', HR);
  f.advance(60_000);
  const res = await f.call('PUT', '/datasources/hr_wiki', {
    display_name: 'People',
    icon_base64: 'AAAA',
    object_definitions: [
      { name: 'doc', property_definitions: [{ name: 'when', display_label: 'When', property_type: 'DATE' }] },
    ],
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.display_name, 'People');
  assert.equal(res.body.icon_base64, 'AAAA');
  assert.deepEqual(res.body.object_definitions, [
    {
      name: 'doc',
      property_definitions: [{ name: 'when', display_label: 'When', is_searchable: false, property_type: 'DATE' }],
    },
  ]);
  assert.equal(res.body.subs.length, 2, 'subs unchanged');
  assert.equal(res.body.created_at, '2026-01-01T00:00:00.000Z');
  assert.equal(res.body.updated_at, '2026-01-01T00:01:00.000Z');

  const partial = await f.call('PUT', '/datasources/hr_wiki', { display_name: 'Staff' });
  assert.equal(partial.status, 200);
  assert.equal(partial.body.icon_base64, 'AAAA', 'omitted fields stay');
  const cleared = await f.call('PUT', '/datasources/hr_wiki', { icon_base64: null });
  assert.equal(cleared.body.icon_base64, null);

  for (const field of ['name', 'subs']) {
    const rej = await f.call('PUT', '/datasources/hr_wiki', { [field]: field === 'subs' ? [] : 'other' });
    assert.equal(rej.status, 422, field);
    assert.deepEqual(
      rej.body.detail.map((i: any) => [i.type, i.loc]),
      [['extra_forbidden', ['body', field]]],
    );
  }
  const missing = await f.call('PUT', '/datasources/nope', { display_name: 'x' });
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { detail: "Datasource 'nope' not found" });
});

test('DELETE /datasources/{name} removes the datasource with its subs, users, groups and memberships', async () => {
  const f = await indexingFixture();
  await f.call('POST', '/datasources', HR);
  await f.call('POST', '/users', { datasource: 'hr_wiki', user: { email: 'a@x.com' } });
  await f.call('POST', '/groups', { datasource: 'hr_wiki', group: { name: 'staff' } });
  await f.call('POST', '/memberships', {
    datasource: 'hr_wiki',
    membership: { group_name: 'staff', member_email: 'a@x.com' },
  });
  const res = await f.call('DELETE', '/datasources/hr_wiki');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    datasource: 'hr_wiki',
    deleted: true,
    removed: { subs: 4, users: 1, groups: 1, memberships: 1 },
  });
  assert.equal((await f.call('GET', '/datasources/hr_wiki')).status, 404);
  assert.deepEqual((await f.call('GET', '/datasources')).body, { datasources: [] });
  const gone = await f.call('DELETE', '/datasources/hr_wiki');
  assert.equal(gone.status, 404);
  assert.deepEqual(gone.body, { detail: "Datasource 'hr_wiki' not found" });
  // Re-creating the name starts empty.
  await f.call('POST', '/datasources', { name: 'hr_wiki', display_name: 'HR' });
  assert.equal((await f.call('POST', '/users', { datasource: 'hr_wiki', user: { email: 'a@x.com' } })).status, 200);
  assert.equal((await f.call('POST', '/groups', { datasource: 'hr_wiki', group: { name: 'staff' } })).status, 200);
});

test('GET /file-types always answers the 18 document file types', async () => {
  const f = await indexingFixture();
  const res = await f.call('GET', '/file-types');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    file_types: [
      'message',
      'merge_request',
      'issue',
      'wiki',
      'markdown',
      'blog',
      'content',
      'timeline',
      'email',
      'file',
      'directory',
      'email_parent',
      'issue_parent',
      'wiki_parent',
      'page',
      'merge_request_parent',
      'webpage',
      'asset',
    ],
  });
});

test('GET /datasources/{name} of an unknown datasource is 404 {detail}', async () => {
  const f = await indexingFixture();
  const res = await f.call('GET', '/datasources/nope');
  assert.equal(res.status, 404);
  assert.deepEqual(res.body, { detail: "Datasource 'nope' not found" });
});

test('malformed JSON and a missing body are 422 in the Pydantic shape', async () => {
  const f = await indexingFixture();
  const bad = await f.call('POST', '/datasources', '{"name": ');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.detail[0].type, 'json_invalid');
  assert.equal(bad.body.detail[0].loc[0], 'body');
  const none = await f.call('POST', '/datasources');
  assert.equal(none.status, 422);
  assert.deepEqual(none.body.detail, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
});

test('maximum lengths exceeded are 422 string_too_long / too_long', async () => {
  const f = await indexingFixture();
  const long = await f.call('POST', '/datasources', { name: 'a'.repeat(65), display_name: 'x'.repeat(257) });
  assert.equal(long.status, 422);
  assert.deepEqual(
    long.body.detail.map((i: any) => [i.type, i.loc, i.ctx]),
    [
      ['string_too_long', ['body', 'name'], { max_length: 64 }],
      ['string_too_long', ['body', 'display_name'], { max_length: 256 }],
    ],
  );
  const many = await f.call('POST', '/datasources', {
    name: 'ds',
    display_name: 'x',
    subs: Array.from({ length: 1001 }, (_, i) => ({ name: `S${i}`, key: `s${'abcdefghij'[i % 10]}` })),
  });
  assert.equal(many.status, 422);
  assert.deepEqual(many.body.detail[0].type, 'too_long');
  assert.deepEqual(many.body.detail[0].loc, ['body', 'subs']);
  await f.call('POST', '/datasources', { name: 'ds', display_name: 'x' });
  const group = await f.call('POST', '/groups', { datasource: 'ds', group: { name: 'g'.repeat(257) } });
  assert.equal(group.status, 422);
  assert.deepEqual(
    group.body.detail.map((i: any) => [i.type, i.loc]),
    [['string_too_long', ['body', 'group', 'name']]],
  );
  const email = await f.call('POST', '/users', { datasource: 'ds', user: { email: `${'e'.repeat(320)}@x.com` } });
  assert.equal(email.status, 422);
  assert.deepEqual(
    email.body.detail.map((i: any) => [i.type, i.loc]),
    [['string_too_long', ['body', 'user', 'email']]],
  );
});
