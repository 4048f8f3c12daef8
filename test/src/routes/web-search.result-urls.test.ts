/**
 * POST /api/beta/web_search result URLs: every `url` in the answer is an
 * absolute http(s) page address; provider hits with other URLs (script URLs,
 * relative or empty ones) are left out, in every mode.
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

const BAD = [
  'javascript:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  '/relative/page',
  '',
  'mailto:x@example.com',
];
const GOOD = ['https://example.com/a', 'http://example.org/b'];
const hits = [...BAD, ...GOOD].map((url, i) => ({ url, title: `Hit ${i}`, description: `Snippet ${i}` }));

const urls = async (body: unknown): Promise<string[]> => (await api.results(body)).map((r) => r.url);

before(async () => {
  state = providerState();
  brave = await startFakeBrave(state);
  searxng = await startFakeSearxng(state);
  // Private addresses refused: the good hits are never fetched (example.com and example.org do not resolve here or are public).
  api = await webSearchApp(webSearchConfig({ brave: brave.url, searxng: searxng.url }));
});
after(async () => Promise.all([brave.close(), searxng.close()]));
beforeEach(() => Object.assign(state, providerState()));

describe('result URLs', () => {
  it('mode engine2 leaves out hits whose URL is not an absolute http(s) address', async () => {
    state.hits = hits;
    assert.deepEqual(await urls({ queries: ['q'], mode: 'engine2' }), GOOD);
  });

  it('mode context leaves out such sources', async () => {
    state.context = {
      grounding: {
        generic: [...BAD, ...GOOD].map((url) => ({
          url,
          title: `T ${url}`,
          snippets: ['A grounded snippet sentence about q.'],
        })),
      },
      sources: {},
    };
    const answer = await urls({ queries: ['q'], mode: 'context' });
    assert.deepEqual(answer.slice(1), GOOD);
  });
});
