/**
 * POST /api/beta/web_search, the three modes against fake Brave and SearXNG
 * servers and a small site on 127.0.0.1 (loopback allowed for the crawler in
 * this file only): crawling, sites, count, de-duplication, deep_search,
 * the request timeout and the configured default mode.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { closeSharedPool } from '../../../extractors/index.ts';
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

const hit = (path: string, title = `Hit ${path}`, description = `Snippet of ${path}`, extra?: string[]) => ({
  url: `${site.url}${path}`,
  title,
  description,
  ...(extra ? { extra_snippets: extra } : {}),
});

before(async () => {
  state = providerState();
  site = await startSite();
  brave = await startFakeBrave(state);
  searxng = await startFakeSearxng(state);
  api = await webSearchApp(
    webSearchConfig({ brave: brave.url, searxng: searxng.url, env: { WEB_SEARCH_CONTENT_CHARS: '500' } }),
  );
});
after(async () => {
  await Promise.all([site.close(), brave.close(), searxng.close()]);
  await closeSharedPool();
});
beforeEach(() => {
  Object.assign(state, providerState());
  site.requests.length = 0;
  brave.requests.length = 0;
  searxng.requests.length = 0;
});

describe('mode search', () => {
  it('crawls every hit and returns its main content with the provider title and description', async () => {
    state.hits = [hit('/article/1', '<strong>First</strong> &amp; best'), hit('/article/2')];
    const results = await api.results({ queries: ['articles'], mode: 'search' });
    assert.equal(results.length, 2);
    assert.deepEqual(results[0].metadata, { title: 'First & best', description: 'Snippet of /article/1' });
    assert.equal(results[0].url, `${site.url}/article/1`);
    assert.match(results[0].content, /Full body text of article 1 with crawled content/);
    assert.doesNotMatch(results[0].content, /Navigation link|Footer copyright|Sidebar advertisement/);
    assert.match(results[1].content, /Full body text of article 2/);
    const braveReq = new URL(brave.requests[0].path, brave.url);
    assert.equal(braveReq.pathname, '/res/v1/web/search');
    assert.equal(braveReq.searchParams.get('q'), 'articles');
    assert.equal(braveReq.searchParams.get('extra_snippets'), null);
    assert.match(String(site.requests[0].headers['user-agent']), /^EnterpriseSearchCrawler\//);
  });

  it('reads plain text and PDF pages, and keeps the snippet of pages it cannot read', async () => {
    state.hits = [hit('/plain'), hit('/doc.pdf'), hit('/image.png'), hit('/missing')];
    const results = await api.results({ queries: ['docs'] });
    assert.equal(results[0].content, 'Plain text page body.');
    assert.match(results[1].content, /Hello from the PDF document/);
    assert.equal(results[2].content, 'Snippet of /image.png');
    assert.equal(results[3].content, 'Snippet of /missing');
  });

  it('bounds results by count across queries, interleaving queries and removing duplicate URLs', async () => {
    state.byQuery = {
      one: [hit('/article/1'), hit('/article/2'), hit('/article/3')],
      two: [hit('/article/1?utm_source=x'), hit('/article/4/'), hit('/article/5')],
    };
    const results = await api.results({ queries: ['one', 'two'], count: 4 });
    assert.deepEqual(
      results.map((r) => new URL(r.url).pathname),
      ['/article/1', '/article/2', '/article/4/', '/article/3'],
    );
    const single = await api.results({ queries: ['one'], count: 1 });
    assert.equal(single.length, 1);
  });

  it('restricts results to sites: site: operator in the query and hits on other hosts dropped', async () => {
    state.byQuery = {
      [`news site:127.0.0.1`]: [hit('/article/1'), { url: 'http://elsewhere.invalid/x', title: 'x', description: 'x' }],
    };
    const results = await api.results({ queries: ['news'], sites: ['127.0.0.1'] });
    assert.deepEqual(
      results.map((r) => r.url),
      [`${site.url}/article/1`],
    );
  });

  it('without deep_search cuts page content; with deep_search returns full content and extra snippets as fallback', async () => {
    state.hits = [
      hit('/long', 'Long', 'Long snippet', ['extra one', 'extra two']),
      hit('/missing', 'Gone', 'Gone snippet', ['gone extra']),
    ];
    const shallow = await api.results({ queries: ['long'] });
    assert.ok(shallow[0].content.length <= 501, `length ${shallow[0].content.length}`);
    assert.equal(shallow[1].content, 'Gone snippet');
    const deep = await api.results({ queries: ['long'], deep_search: true });
    assert.ok(deep[0].content.length > 10_000, `length ${deep[0].content.length}`);
    assert.equal(deep[1].content, 'Gone snippet\ngone extra');
    assert.equal(new URL(brave.requests.at(-1)!.path, brave.url).searchParams.get('extra_snippets'), 'true');
  });

  it('answers within the request timeout: a page not read in time keeps its snippet', async () => {
    state.hits = [hit('/article/1'), hit('/slow?ms=4000', 'Slow', 'Slow snippet')];
    const results = await api.results({ queries: ['slow'], timeout: 1 });
    assert.match(results[0].content, /Full body text of article 1/);
    assert.equal(results[1].content, 'Slow snippet');
  });
});

describe('mode engine2 (SearXNG)', () => {
  it('returns snippets without crawling', async () => {
    state.hits = [hit('/article/1', 'One', 'SearXNG snippet one'), hit('/article/2', 'Two', 'SearXNG snippet two')];
    const results = await api.results({ queries: ['q'], mode: 'engine2' });
    assert.deepEqual(results, [
      {
        url: `${site.url}/article/1`,
        metadata: { title: 'One', description: 'SearXNG snippet one' },
        content: 'SearXNG snippet one',
      },
      {
        url: `${site.url}/article/2`,
        metadata: { title: 'Two', description: 'SearXNG snippet two' },
        content: 'SearXNG snippet two',
      },
    ]);
    assert.equal(site.requests.length, 0);
    assert.equal(brave.requests.length, 0);
    assert.equal(new URL(searxng.requests[0].path, searxng.url).searchParams.get('format'), 'json');
  });

  it('crawls full content with deep_search', async () => {
    state.hits = [hit('/article/3')];
    const results = await api.results({ queries: ['q'], mode: 'engine2', deep_search: true });
    assert.match(results[0].content, /Full body text of article 3/);
  });

  it('filters by site with subdomains allowed', async () => {
    state.hits = [
      { url: 'https://docs.example.com/a', title: 'a', description: 'a' },
      { url: 'https://example.com/b', title: 'b', description: 'b' },
      { url: 'https://notexample.com/c', title: 'c', description: 'c' },
      { url: 'https://other.org/d', title: 'd', description: 'd' },
    ];
    state.byQuery = { 'q (site:example.com OR site:other.org)': state.hits };
    const results = await api.results({
      queries: ['q'],
      mode: 'engine2',
      sites: ['https://www.example.com/', 'other.org'],
    });
    assert.deepEqual(
      results.map((r) => r.metadata.title),
      ['a', 'b', 'd'],
    );
  });
});

describe('mode context (Brave LLM context)', () => {
  it('returns a synthesized summary first, then grounded source snippets, without crawling', async () => {
    state.context = {
      grounding: {
        generic: [
          {
            url: `${site.url}/article/1`,
            title: 'Mountains',
            snippets: ['Mount Everest is the tallest mountain on Earth. It is in Nepal.', 'Second snippet.'],
          },
          { url: 'https://example.org/k2', title: 'K2', snippets: ['K2 is the second tallest mountain in the world.'] },
          { url: 'https://example.org/k2#section', title: 'K2 again', snippets: ['duplicate'] },
        ],
      },
      sources: { 'https://example.org/k2': { title: 'K2 page', hostname: 'example.org', age: null } },
    };
    const results = await api.results({ queries: ['tallest mountain'], mode: 'context' });
    assert.equal(results.length, 3);
    const [summary, first, second] = results;
    assert.match(summary.metadata.title, /tallest mountain/);
    assert.match(summary.content, /Mount Everest is the tallest mountain on Earth\. \[1\]/);
    assert.match(summary.content, /K2 is the second tallest mountain in the world\. \[2\]/);
    assert.match(summary.content, /\[2\] K2 \(https:\/\/example\.org\/k2\)/);
    assert.equal(first.url, `${site.url}/article/1`);
    assert.equal(first.content, 'Mount Everest is the tallest mountain on Earth. It is in Nepal.\n\nSecond snippet.');
    assert.equal(second.metadata.title, 'K2');
    assert.equal(site.requests.length, 0);
    const contextReq = new URL(brave.requests[0].path, brave.url);
    assert.equal(contextReq.pathname, '/res/v1/llm/context');
    assert.equal(contextReq.searchParams.get('maximum_number_of_tokens'), '8192');

    const bounded = await api.results({ queries: ['tallest mountain'], mode: 'context', count: 2 });
    assert.equal(bounded.length, 2);
    const onlyK2 = await api.results({ queries: ['tallest mountain'], mode: 'context', sites: ['example.org'] });
    assert.deepEqual(
      onlyK2.slice(1).map((r) => r.url),
      ['https://example.org/k2'],
    );
  });

  it('returns an empty array when there are no sources; deep_search doubles the token budget', async () => {
    assert.deepEqual(await api.results({ queries: ['nothing'], mode: 'context', deep_search: true }), []);
    assert.equal(new URL(brave.requests[0].path, brave.url).searchParams.get('maximum_number_of_tokens'), '16384');
  });
});

describe('default mode', () => {
  it('uses WEB_SEARCH_DEFAULT_MODE when mode is omitted', async () => {
    const engine2 = await webSearchApp(
      webSearchConfig({ brave: brave.url, searxng: searxng.url, env: { WEB_SEARCH_DEFAULT_MODE: 'engine2' } }),
    );
    state.hits = [hit('/article/1')];
    const res = await engine2.request({ queries: ['q'] });
    assert.equal(res.status, 200);
    assert.equal(searxng.requests.length, 1);
    assert.equal(brave.requests.length, 0);
  });
});
