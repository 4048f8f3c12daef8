/**
 * The web-search app for tests: a configuration pointing at the fake
 * providers of fake-web.ts (loopback crawling allowed unless asked otherwise),
 * and the app with a web search service over it, one personal and one
 * service-account key.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import type { Services } from '../../src/services.ts';
import { createWebSearchService, type WebSearchDeps } from '../../src/websearch/service.ts';
import type { WebSearchResult } from '../../src/websearch/types.ts';
import { personalKey, serviceAccountKey, testConfig, testServices } from './app.ts';

/** Config for tests: Brave and SearXNG at the fakes, loopback allowed unless `allowPrivate: false`. */
export function webSearchConfig(opts: {
  brave?: string;
  searxng?: string;
  allowPrivate?: boolean;
  env?: Record<string, string>;
}): Config {
  return testConfig({
    LOG_LEVEL: 'silent',
    ...(opts.brave ? { BRAVE_API_KEY: 'test-brave-key', BRAVE_BASE_URL: opts.brave } : {}),
    ...(opts.searxng ? { SEARXNG_BASE_URL: opts.searxng } : {}),
    CRAWLER_ALLOW_PRIVATE: opts.allowPrivate === false ? 'false' : 'true',
    ...opts.env,
  });
}

export interface WebSearchApp {
  request(body: unknown, key?: string | null): Promise<Response>;
  /** POSTs `body` with the personal key, asserts 200 and returns the results. */
  results(body: unknown): Promise<WebSearchResult[]>;
  personalKey: string;
  serviceKey: string;
}

/** The HTTP app with a web search service over `config` and one personal and one service-account key. */
export async function webSearchApp(config: Config, deps: Partial<WebSearchDeps> = {}): Promise<WebSearchApp> {
  const webSearch = createWebSearchService({ config: config.webSearch, log: silentLogger, ...deps });
  const services: Services = { ...(await testServices()), config, webSearch };
  const personal = await personalKey(services, 'user@example.com');
  const serviceKey = await serviceAccountKey(services, 'indexer');
  const app = createApp(services);
  const request = (body: unknown, key: string | null = personal): Promise<Response> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    return Promise.resolve(
      app.request('/api/beta/web_search', {
        method: 'POST',
        headers,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  };
  return {
    personalKey: personal,
    serviceKey,
    request,
    async results(body) {
      const res = await request(body);
      const json = await res.json();
      assert.equal(res.status, 200, JSON.stringify(json));
      return json as WebSearchResult[];
    },
  };
}
