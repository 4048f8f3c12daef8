/**
 * Spec conformance (Document: `last_modified` is an ISO 8601 timestamp;
 * property_type DATE accepts an ISO 8601 string; Errors: 422 for a wrong
 * type / invalid value): a calendar date that does not exist is not ISO 8601.
 * Today "2026-02-30" passes because Date.parse rolls it over to March 2
 * (the search side's `last_modified_date` range does reject such dates).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { doc, docsHarness, type DocsHarness } from '../../support/documents.ts';

let h: DocsHarness;
before(async () => {
  h = await docsHarness();
  await h.api('POST', '/datasources', {
    name: 'wiki',
    display_name: 'Wiki',
    object_definitions: [
      { name: 'page', property_definitions: [{ name: 'due', display_label: 'Due', property_type: 'DATE' }] },
    ],
  });
});
after(() => h.close());

test('a last_modified on a day that does not exist is a 422 validation error', async () => {
  for (const last_modified of ['2026-02-30T00:00:00Z', '2026-04-31']) {
    const r = await h.api('POST', '/documents', { documents: doc({ id: 'bad-date', last_modified }) });
    assert.equal(r.status, 422, `${last_modified}: ${r.status} ${JSON.stringify(r.body)}`);
    assert.deepEqual(r.body.detail[0].loc, ['body', 'documents', 'last_modified']);
  }
});

test('a DATE custom property on a day that does not exist is INVALID_PROPERTY_TYPE', async () => {
  const r = await h.api('POST', '/documents', {
    documents: doc({ id: 'bad-prop', custom_properties: [{ name: 'due', value: '2026-02-30' }] }),
  });
  assert.equal(r.status, 422, `${r.status} ${JSON.stringify(r.body)}`);
  assert.equal(r.body.details?.error_code, 'INVALID_PROPERTY_TYPE');
});
