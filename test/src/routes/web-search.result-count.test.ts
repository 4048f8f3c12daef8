/**
 * POST /api/beta/web_search `count` beyond one provider page: Brave answers at
 * most 20 hits per call and SearXNG one page (about 10-20 hits) per call, so
 * larger counts (up to the cap of 50) are read from further result pages.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type FakeProviderState,
  providerState,
  startFakeBrave,
  startFakeSearxng,
  startSite,
  type TestServer,
} from '../../support/fake-web.ts';
import { webSearchApp, webSearchConfig, type WebSearchApp } from '../../support/websearch.ts';

let site: TestServer;
let brave: TestServer;
let searxng: TestServer;
let state: FakeProviderState;
let api: WebSearchApp;

/** Hits on a page that answers 404, so every result keeps its snippet without a parse. */
const hits = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    url: `${site.url}/missing?n=${i}`,
    title: `Hit ${i}`,
    description: `Snippet ${i}`,
  }));

before(async () => {
  state = providerState();
  site = await startSite();
  brave = await startFakeBrave(state);
  searxng = await startFakeSearxng(state);
  api = await webSearchApp(webSearchConfig({ brave: brave.url, searxng: searxng.url }));
});
after(async () => Promise.all([site.close(), brave.close(), searxng.close()]));
beforeEach(() => Object.assign(state, providerState()));

describe('count beyond one provider page', () => {
  it('mode search returns up to count results in rank order when Brave has more than 20', async () => {
    state.hits = hits(70);
    const results = await api.results({ queries: ['many'], count: 45, timeout: 30 });
    assert.deepEqual(
      results.map((r) => r.metadata.title),
      hits(45).map((h) => h.title),
    );
  });

  it('caps at 50, and stops at the hits Brave has', async () => {
    state.hits = hits(70);
    assert.equal((await api.results({ queries: ['many'], count: 500, timeout: 30 })).length, 50);
    state.hits = hits(23);
    assert.deepEqual(
      (await api.results({ queries: ['few'], count: 50, timeout: 30 })).map((r) => r.metadata.title),
      hits(23).map((h) => h.title),
    );
  });

  it('mode engine2 reads further SearXNG pages until count is reached or the pages run out', async () => {
    state.searxngPageSize = 10;
    state.hits = hits(70);
    assert.deepEqual(
      (await api.results({ queries: ['many'], count: 35, mode: 'engine2' })).map((r) => r.metadata.title),
      hits(35).map((h) => h.title),
    );
    state.hits = hits(23);
    assert.deepEqual(
      (await api.results({ queries: ['few'], count: 50, mode: 'engine2' })).map((r) => r.metadata.title),
      hits(23).map((h) => h.title),
    );
  });
});
