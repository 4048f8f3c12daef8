/** Indexing API subs: adding top-level and child subs, deleting with children, ambiguity, and every error row. */
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

test('POST /datasources/{name}/subs adds top-level and child subs; 404, 400, 409 and 422 per rule', async () => {
  const f = await indexingFixture();
  await f.call('POST', '/datasources', { name: 'ds', display_name: 'DS' });
  const top = await f.call('POST', '/datasources/ds/subs', { name: 'Sales Team' });
  assert.equal(top.status, 200);
  assert.deepEqual(top.body.subs, [{ key: 'sales_team', name: 'Sales Team', value: 'ds__sales_team', children: [] }]);
  const child = await f.call('POST', '/datasources/ds/subs', { name: 'EMEA', key: 'emea', parent_key: 'sales_team' });
  assert.equal(child.status, 200);
  assert.deepEqual(child.body.subs[0].children, [
    { key: 'emea', name: 'EMEA', parent_key: 'sales_team', value: 'ds__sales_team__emea' },
  ]);

  const cases: [unknown, number, unknown][] = [
    [{ name: 'Sales Team' }, 409, { detail: "Sub 'sales_team' already exists in datasource 'ds'" }],
    [{ name: 'EMEA', parent_key: 'sales_team' }, 409, { detail: "Sub 'emea' already exists under 'sales_team'" }],
    [{ name: 'X', parent_key: 'emea' }, 400, { detail: "Sub 'emea' is a child sub; a child cannot have children" }],
    [{ name: 'X', parent_key: 'nope' }, 404, { detail: "Sub 'nope' not found in datasource 'ds'" }],
  ];
  for (const [body, status, expected] of cases) {
    const res = await f.call('POST', '/datasources/ds/subs', body);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.deepEqual(res.body, expected);
  }
  const underivable = await f.call('POST', '/datasources/ds/subs', { name: '42' });
  assert.equal(underivable.status, 422);
  assert.deepEqual(underivable.body.detail[0].loc, ['body', 'name']);
  const noName = await f.call('POST', '/datasources/ds/subs', { key: 'k' });
  assert.equal(noName.status, 422);
  assert.deepEqual(noName.body.detail[0].loc, ['body', 'name']);
  assert.equal(noName.body.detail[0].type, 'missing');
  const noDs = await f.call('POST', '/datasources/nope/subs', { name: 'A' });
  assert.equal(noDs.status, 404);
  assert.deepEqual(noDs.body, { detail: "Datasource 'nope' not found" });
});

test('DELETE /datasources/{name}/subs/{key} removes the sub and its children; child keys under several parents need parent_key', async () => {
  const f = await indexingFixture();
  await f.call('POST', '/datasources', HR);
  const ambiguous = await f.call('DELETE', '/datasources/hr_wiki/subs/payroll');
  assert.equal(ambiguous.status, 409);
  assert.match(ambiguous.body.detail, /several parents \(human_resources, eng\)/);
  const one = await f.call('DELETE', '/datasources/hr_wiki/subs/payroll?parent_key=eng');
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.subs.find((s: any) => s.key === 'eng').children, []);
  const unique = await f.call('DELETE', '/datasources/hr_wiki/subs/payroll');
  assert.equal(unique.status, 200, 'now unique: deleted without parent_key');
  assert.deepEqual(unique.body.subs.find((s: any) => s.key === 'human_resources').children, []);

  await f.call('POST', '/datasources/hr_wiki/subs', { name: 'Bonus', parent_key: 'eng' });
  const withChildren = await f.call('DELETE', '/datasources/hr_wiki/subs/eng');
  assert.equal(withChildren.status, 200);
  assert.deepEqual(
    withChildren.body.subs.map((s: any) => s.key),
    ['human_resources'],
  );
  const again = await f.call('POST', '/datasources/hr_wiki/subs', { name: 'Bonus', parent_key: 'eng' });
  assert.equal(again.status, 404, 'the children went with their parent');

  const missing = await f.call('DELETE', '/datasources/hr_wiki/subs/eng');
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { detail: "Sub 'eng' not found in datasource 'hr_wiki'" });
  const missingChild = await f.call('DELETE', '/datasources/hr_wiki/subs/x?parent_key=human_resources');
  assert.equal(missingChild.status, 404);
  const noDs = await f.call('DELETE', '/datasources/nope/subs/eng');
  assert.equal(noDs.status, 404);
  assert.deepEqual(noDs.body, { detail: "Datasource 'nope' not found" });
});
