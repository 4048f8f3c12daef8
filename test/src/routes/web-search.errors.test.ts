/**
 * POST /api/beta/web_search errors: authentication (401/403), body
 * validation (422 Pydantic envelope), unconfigured providers (503) and
 * provider failures (502 with the reason: HTTP error, invalid JSON, timeout).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type FakeProviderState,
  providerState,
  startFakeBrave,
  startFakeSearxng,
  type TestServer,
} from '../../support/fake-web.ts';
import { webSearchApp, webSearchConfig, type WebSearchApp } from '../../support/websearch.ts';

let brave: TestServer;
let searxng: TestServer;
let state: FakeProviderState;
let api: WebSearchApp;

before(async () => {
  state = providerState();
  brave = await startFakeBrave(state);
  searxng = await startFakeSearxng(state);
  api = await webSearchApp(webSearchConfig({ brave: brave.url, searxng: searxng.url }));
});
after(async () => Promise.all([brave.close(), searxng.close()]));
beforeEach(() => Object.assign(state, providerState()));

async function detail(res: Response, status: number): Promise<any> {
  const body = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  return body.detail;
}

describe('authentication', () => {
  it('answers 401 without a key or with an unknown key, 403 for a service-account key', async () => {
    await detail(await api.request({ queries: ['q'] }, null), 401);
    await detail(await api.request({ queries: ['q'] }, 'sk_not_a_real_key'), 401);
    await detail(await api.request({ queries: ['q'] }, api.serviceKey), 403);
    assert.equal(brave.requests.length, 0);
  });
});

describe('validation', () => {
  const cases: [string, unknown, (string | number)[], string][] = [
    ['queries missing', {}, ['body', 'queries'], 'missing'],
    ['queries not a list', { queries: 'q' }, ['body', 'queries'], 'list_type'],
    ['queries empty', { queries: [] }, ['body', 'queries'], 'too_short'],
    ['queries all blank', { queries: ['', '  '] }, ['body', 'queries'], 'value_error'],
    ['query not a string', { queries: [1] }, ['body', 'queries', 0], 'string_type'],
    ['too many queries', { queries: Array(11).fill('q') }, ['body', 'queries'], 'too_long'],
    ['query too long', { queries: ['x'.repeat(401)] }, ['body', 'queries', 0], 'string_too_long'],
    ['extra field', { queries: ['q'], page: 2 }, ['body', 'page'], 'extra_forbidden'],
    ['count 0', { queries: ['q'], count: 0 }, ['body', 'count'], 'greater_than_equal'],
    ['count fractional', { queries: ['q'], count: 1.5 }, ['body', 'count'], 'int_from_float'],
    ['count string', { queries: ['q'], count: 'ten' }, ['body', 'count'], 'int_type'],
    ['timeout 0', { queries: ['q'], timeout: 0 }, ['body', 'timeout'], 'greater_than_equal'],
    ['deep_search not boolean', { queries: ['q'], deep_search: 'yes' }, ['body', 'deep_search'], 'bool_type'],
    ['unknown mode', { queries: ['q'], mode: 'turbo' }, ['body', 'mode'], 'literal_error'],
    ['site not a host', { queries: ['q'], sites: ['not a host!'] }, ['body', 'sites', 0], 'value_error'],
  ];
  for (const [name, body, loc, type] of cases) {
    it(`422 for ${name}`, async () => {
      const items = await detail(await api.request(body), 422);
      assert.ok(Array.isArray(items));
      const item = items.find((i: { loc: unknown[] }) => JSON.stringify(i.loc) === JSON.stringify(loc));
      assert.ok(item, `no item at ${JSON.stringify(loc)} in ${JSON.stringify(items)}`);
      assert.equal(item.type, type);
      assert.equal(typeof item.msg, 'string');
    });
  }
  it('422 for invalid JSON and for an empty body', async () => {
    assert.equal((await detail(await api.request('{"queries": ['), 422))[0].type, 'json_invalid');
    assert.equal((await detail(await api.request(''), 422))[0].type, 'missing');
  });
  it('accepts null for optional fields', async () => {
    const res = await api.request({
      queries: ['q'],
      sites: null,
      count: null,
      timeout: null,
      deep_search: null,
      mode: 'engine2',
    });
    assert.equal(res.status, 200);
  });
});

describe('providers not configured', () => {
  it('503 with a detail naming the missing setting', async () => {
    const none = await webSearchApp(webSearchConfig({}));
    assert.match(await detail(await none.request({ queries: ['q'], mode: 'search' }), 503), /BRAVE_API_KEY/);
    assert.match(await detail(await none.request({ queries: ['q'], mode: 'context' }), 503), /BRAVE_API_KEY/);
    assert.match(await detail(await none.request({ queries: ['q'], mode: 'engine2' }), 503), /SEARXNG_BASE_URL/);
  });
});

describe('provider failures', () => {
  it('502 when Brave answers HTTP 500', async () => {
    state.behaviour = 500;
    assert.match(
      await detail(await api.request({ queries: ['q'] }), 502),
      /Brave Search answered HTTP 500.*upstream exploded/,
    );
    assert.match(await detail(await api.request({ queries: ['q'], mode: 'context' }), 502), /HTTP 500/);
  });
  it('answers 200 with the results of the queries that succeeded when only some fail', async () => {
    state.byQuery = { good: [{ url: 'https://example.com/good', title: 'Good', description: 'good snippet' }] };
    state.failQueries = { bad: 500 };
    state.hits = [{ url: 'https://example.com/bad', title: 'Bad', description: 'never answered' }];
    const res = await api.request({ queries: ['good', 'bad'], mode: 'engine2' });
    assert.equal(res.status, 200);
    assert.deepEqual(
      (await res.json()).map((r: { url: string }) => r.url),
      ['https://example.com/good'],
    );
    assert.match(
      await detail(await api.request({ queries: ['bad'], mode: 'engine2' }), 502),
      /SearXNG answered HTTP 500/,
    );
  });
  it('502 when Brave answers invalid JSON', async () => {
    state.behaviour = 'invalid-json';
    assert.match(await detail(await api.request({ queries: ['q'] }), 502), /invalid JSON/);
  });
  it('502 when the provider does not answer within the request timeout', async () => {
    state.behaviour = 'slow';
    state.delayMs = 2500;
    assert.match(await detail(await api.request({ queries: ['q'], timeout: 1 }), 502), /did not answer within 1 s/);
  });
  it('502 with a hint when SearXNG refuses the JSON format, and for a wrong response shape', async () => {
    state.behaviour = 403;
    assert.match(
      await detail(await api.request({ queries: ['q'], mode: 'engine2' }), 502),
      /SearXNG answered HTTP 403.*json format/,
    );
  });
  it('502 when Brave rejects the subscription token', async () => {
    const wrongKey = await webSearchApp(webSearchConfig({ brave: brave.url, env: { BRAVE_API_KEY: 'wrong' } }));
    assert.match(await detail(await wrongKey.request({ queries: ['q'] }), 502), /HTTP 401/);
  });
});
