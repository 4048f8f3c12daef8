/**
 * Spec conformance (Chat-completion API, `metadata.web_search_mode`: `search`,
 * `context` or `engine2`; empty or omitted uses the default): an invalid mode
 * is a 422 whose message names the accepted values. Today the message reads
 * "Input should be 'undefined'" (the union with the empty-string literal is
 * mapped from its first branch, whose requirement is not read).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { searchHarness, type SearchHarness } from '../../support/search.ts';

let h: SearchHarness;
before(async () => {
  h = await searchHarness();
});
after(() => h.close());

test('an unknown metadata.web_search_mode is a 422 naming the accepted modes', async () => {
  const key = await h.personal('ann@x.org');
  const res = await h.app.request('/api/beta/serviceai/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'extractive',
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { web_search_mode: 'bing' },
    }),
  });
  assert.equal(res.status, 422);
  const body = (await res.json()) as any;
  const item = body.detail[0];
  assert.deepEqual(item.loc, ['body', 'metadata', 'web_search_mode']);
  assert.doesNotMatch(item.msg, /undefined/);
  for (const mode of ['search', 'context', 'engine2']) assert.match(item.msg, new RegExp(`'${mode}'`));
  assert.doesNotMatch(body.error.message, /undefined/);
});
