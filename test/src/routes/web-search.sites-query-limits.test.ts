/**
 * POST /api/beta/web_search with `sites` against Brave's query limits (400
 * characters, 50 words): the `site:` operators never push a valid request's
 * query past them; they are split over several calls, or left to the host
 * filter when even one does not fit; a query of more words is cut to 50.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type FakeProviderState,
  providerState,
  startFakeBrave,
  startSite,
  type TestServer,
} from '../../support/fake-web.ts';
import { webSearchApp, webSearchConfig, type WebSearchApp } from '../../support/websearch.ts';

let site: TestServer;
let brave: TestServer;
let state: FakeProviderState;
let api: WebSearchApp;

/** 20 sites whose OR-ed operators alone are longer than 400 characters; the fake site is the last one. */
const sites = () => [...Array.from({ length: 19 }, (_, i) => `documentation-portal-${i}.example.org`), '127.0.0.1'];

before(async () => {
  state = providerState();
  site = await startSite();
  brave = await startFakeBrave(state);
  api = await webSearchApp(webSearchConfig({ brave: brave.url }));
});
after(async () => Promise.all([site.close(), brave.close()]));
beforeEach(() => {
  Object.assign(state, providerState());
  brave.requests.length = 0;
});

const sent = () => brave.requests.map((r) => new URL(r.path, 'http://x').searchParams.get('q') ?? '');

describe('sites within the provider query limits', () => {
  it('20 sites: operators split over calls that each fit, every site asked for, hits on the sites answered', async () => {
    state.hits = [
      { url: `${site.url}/missing?n=1`, title: 'On the site', description: 'Snippet' },
      { url: 'https://elsewhere.example.net/', title: 'Off', description: 'x' },
    ];
    const results = await api.results({ queries: ['release notes'], sites: sites(), count: 5 });
    assert.deepEqual(
      results.map((r) => r.metadata.title),
      ['On the site'],
    );
    assert.ok(sent().length > 1);
    for (const q of sent()) assert.ok(q.length <= 400 && q.startsWith('release notes '), q);
    for (const host of sites())
      assert.ok(
        sent().some((q) => q.includes(`site:${host}`)),
        host,
      );
  });

  it('a query of 400 characters with a site is sent without operators and its hits filtered by host', async () => {
    const query = 'word '.repeat(40).padEnd(400, 'x');
    const results = await api.results({ queries: [query], sites: ['127.0.0.1'], mode: 'context' });
    assert.deepEqual(sent(), [query]);
    assert.equal(results.length, 0); // the fake's context answer is empty: what matters is a 200, not a 502
  });

  it('a valid query of more than 50 words is sent as its first 50 words instead of failing', async () => {
    state.hits = [{ url: `${site.url}/missing?n=3`, title: 'Found', description: 'z' }];
    const query = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const results = await api.results({ queries: [query], mode: 'search' });
    assert.deepEqual(
      results.map((r) => r.metadata.title),
      ['Found'],
    );
    assert.deepEqual(sent(), [query.split(' ').slice(0, 50).join(' ')]);
  });
});
