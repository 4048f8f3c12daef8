/**
 * POST /api/beta/web_search with private addresses NOT allowed (the
 * production default): search hits pointing at loopback, at a host name that
 * resolves to loopback, at loopback in legacy notation or at the metadata
 * address are not fetched and keep their snippets; with an injected policy
 * that allows the first hop (127.0.0.1) but not 127.0.0.2, a redirect to
 * 127.0.0.2 is not followed.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { AddressPolicy } from '../../../src/websearch/ssrf.ts';
import {
  type FakeProviderState,
  providerState,
  startFakeBrave,
  startServer,
  startSite,
  type TestServer,
} from '../../support/fake-web.ts';
import { webSearchApp, webSearchConfig } from '../../support/websearch.ts';

let site: TestServer;
let inner: TestServer;
let brave: TestServer;
let state: FakeProviderState;

before(async () => {
  state = providerState();
  site = await startSite();
  inner = await startServer((_req, res) => res.end('<p>internal service on 127.0.0.2</p>'), '127.0.0.2');
  brave = await startFakeBrave(state);
});
after(async () => Promise.all([site.close(), inner.close(), brave.close()]));
beforeEach(() => {
  Object.assign(state, providerState());
  site.requests.length = 0;
  inner.requests.length = 0;
});

describe('SSRF defence of the crawler through the endpoint', () => {
  it('does not fetch loopback, localhost, legacy-notation or metadata URLs when private addresses are not allowed', async () => {
    const api = await webSearchApp(webSearchConfig({ brave: brave.url, allowPrivate: false }));
    const urls = [
      `${site.url}/secret?via=literal`,
      `http://localhost:${site.port}/secret?via=name`,
      `http://2130706433:${site.port}/secret?via=decimal`,
      `http://[::ffff:127.0.0.1]:${site.port}/secret?via=mapped`,
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ];
    state.hits = urls.map((url, i) => ({ url, title: `t${i}`, description: `snippet ${i}` }));
    const res = await api.request({ queries: ['internal'] });
    const results = (await res.json()) as { url: string; content: string }[];
    assert.equal(res.status, 200);
    assert.deepEqual(
      results.map((r) => r.content),
      urls.map((_, i) => `snippet ${i}`),
    );
    assert.equal(site.requests.length, 0, 'the loopback site received no request');
  });

  it('does not follow a redirect from an allowed page to a refused address', async () => {
    const only127001: AddressPolicy = (address) => (address === '127.0.0.1' ? null : 'loopback');
    const api = await webSearchApp(webSearchConfig({ brave: brave.url, allowPrivate: false }), { policy: only127001 });
    state.hits = [
      {
        url: `${site.url}/redirect?to=${encodeURIComponent(`${inner.url}/`)}`,
        title: 'r',
        description: 'redirect snippet',
      },
      { url: `${site.url}/article/1`, title: 'a', description: 'article snippet' },
    ];
    const res = await api.request({ queries: ['redirect'] });
    const results = (await res.json()) as { content: string }[];
    assert.equal(results[0].content, 'redirect snippet');
    assert.match(results[1].content, /Full body text of article 1/, 'the allowed first hop itself is crawled');
    assert.equal(inner.requests.length, 0, '127.0.0.2 received no request');
    assert.ok(site.requests.some((r) => r.path.startsWith('/redirect')));
  });
});
