/**
 * Spec conformance (Errors: request validation 422 `{detail: [{loc, msg,
 * type}]}`, "wrong type"; README: Pydantic v2 type names): a value of the
 * wrong type where an object is expected is a type error on that field, not
 * "Extra inputs are not permitted" (`extra_forbidden`, which Pydantic uses
 * only for an unknown key). Today every strict object given a string, number
 * or null reports extra_forbidden.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;
before(async () => {
  h = await docsHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
});
after(() => h.close());

const cases: [string, Record<string, unknown>, (string | number)[]][] = [
  ['permissions as a string', { permissions: 'everyone' }, ['body', 'documents', 'permissions']],
  ['body as a string', { body: 'hello' }, ['body', 'documents', 'body']],
  [
    'allowed_users entry as a string',
    { permissions: { allowed_users: ['ann@x.org'] } },
    ['body', 'documents', 'permissions', 'allowed_users', 0],
  ],
];

for (const [name, over, loc] of cases) {
  test(`${name} is a type error, not extra_forbidden`, async () => {
    const r = await h.api('POST', '/documents', { documents: doc(over) });
    assert.equal(r.status, 422);
    const item = r.body.detail[0];
    assert.deepEqual(item.loc, loc);
    assert.notEqual(item.type, 'extra_forbidden', JSON.stringify(item));
    assert.doesNotMatch(item.msg, /Extra inputs/);
  });
}

test('a JSON null body is reported as a missing or wrongly typed body, not extra_forbidden', async () => {
  const r = await h.api('POST', '/groups', 'null');
  assert.equal(r.status, 422);
  assert.notEqual(r.body.detail[0].type, 'extra_forbidden', JSON.stringify(r.body));
});
