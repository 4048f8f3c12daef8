/**
 * A custom property value of the wrong type is INVALID_PROPERTY_TYPE whatever the value is:
 * a deeply nested array (which JSON.parse accepts) or a huge string. The error message
 * describes the value within bounds instead of serializing it whole.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;

before(async () => {
  h = await docsHarness();
  assert.equal(
    (
      await h.api('POST', '/datasources', {
        name: 'wiki',
        display_name: 'Wiki',
        object_definitions: [
          { name: 'page', property_definitions: [{ name: 'pages', display_label: 'Pages', property_type: 'INTEGER' }] },
        ],
      })
    ).status,
    200,
  );
});
after(() => h.close());

/** A push body whose first document's `pages` value is the raw JSON `valueJson`. */
const withValue = (valueJson: string, bulk: boolean) => {
  const item = JSON.stringify(doc({ custom_properties: [{ name: 'pages', value: 0 }] })).replace(
    '"value":0',
    `"value":${valueJson}`,
  );
  return `{"documents":${bulk ? `[${item}]` : item}}`;
};
const push = (body: string) => h.call('POST', '/api/indexing/documents', h.key, body);
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('wrong-typed custom property values', () => {
  test('a deeply nested array is INVALID_PROPERTY_TYPE in the single form', async () => {
    const r = await push(withValue(deep(20_000), false));
    assert.equal(r.status, 422, JSON.stringify(r.body).slice(0, 200));
    assert.equal(r.body.details.error_code, 'INVALID_PROPERTY_TYPE');
    assert.ok(r.body.details.message.length < 2_000, `message of ${r.body.details.message.length} characters`);
  });

  test('a deeply nested array is a failed entry in bulk', async () => {
    const r = await push(withValue(deep(20_000), true));
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 200));
    assert.equal(r.body.results[0].outcome, 'failed');
    assert.match(r.body.results[0].message, /^INVALID_PROPERTY_TYPE: /);
  });

  test('a huge string is named, not echoed whole', async () => {
    const r = await push(withValue(JSON.stringify('x'.repeat(1_000_000)), false));
    assert.equal(r.status, 422);
    assert.equal(r.body.details.error_code, 'INVALID_PROPERTY_TYPE');
    assert.ok(r.body.details.message.length < 2_000, `message of ${r.body.details.message.length} characters`);
    assert.match(r.body.details.message, /1000000 characters/);
  });

  test('a short value is still quoted in the message', async () => {
    const r = await push(withValue('"12"', false));
    assert.equal(r.status, 422);
    assert.equal(r.body.details.message, `custom property 'pages' must be INTEGER, got "12"`);
  });
});
