/**
 * Spec conformance (Errors: "422 (validation envelope) ... wrong type"; 500 is
 * only for unhandled server errors): a deeply nested JSON value where a
 * string is expected is bad input and must be a 422 validation error, never
 * a 500. Today the 422 body echoes the nested value as `input` and
 * JSON.stringify overflows the stack while writing the response.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
before(async () => {
  h = await searchHarness();
  await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
});
after(() => h.close());

/** `depth` nested arrays as JSON text (about 2 bytes per level). */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

test('Indexing API: a deeply nested value in a string field is 422, not 500', async () => {
  const body = `{"datasource":"wiki","group":{"name":${nested(6000)}}}`;
  const r = await h.api('POST', '/groups', body);
  assert.equal(r.status, 422, `got ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  assert.deepEqual(r.body.detail[0].loc, ['body', 'group', 'name']);
});

test('chat completions: a deeply nested metadata value is 422, not 500', async () => {
  const key = await h.personal('ann@x.org');
  const body = `{"model":"extractive","messages":[{"role":"user","content":"hi"}],"metadata":${nested(6000)}}`;
  const res = await h.app.request('/api/beta/serviceai/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  assert.equal(res.status, 422, `got ${res.status} ${(await res.text()).slice(0, 200)}`);
});

test('web search: a deeply nested queries value is 422, not 500', async () => {
  const key = await h.personal('ann@x.org');
  const res = await h.app.request('/api/beta/web_search', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: `{"queries":[${nested(6000)}]}`,
  });
  assert.equal(res.status, 422, `got ${res.status} ${(await res.text()).slice(0, 200)}`);
});
