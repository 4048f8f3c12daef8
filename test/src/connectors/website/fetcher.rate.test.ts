/**
 * The website connector's request rate per host, on a mocked clock (node:test MockTimers, so no
 * real time is measured): requests to one host are spaced by 1 / `requests_per_second`, a
 * robots.txt `Crawl-delay` spaces them further, and another host (or port) has its own slots.
 * The pages come from real HTTP servers on 127.0.0.1, which note the clock's time of each request.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it, mock } from 'node:test';
import * as v from 'valibot';
import { SiteFetcher } from '../../../../src/connectors/website/fetcher.ts';
import { WebsiteSettings } from '../../../../src/connectors/website/settings.ts';
import { testConfig } from '../../../support/app.ts';
import { startSite, type Site } from '../../../support/site.ts';

let site: Site;
before(async () => {
  site = await startSite();
  for (const p of ['/a', '/b', '/c']) site.pages.set(p, { type: 'text/plain', body: `page ${p}` });
});
after(() => site.close());
beforeEach(() => {
  site.requests.length = 0;
  site.pages.delete('/robots.txt');
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
});
afterEach(() => mock.timers.reset());

function fetcher(requestsPerSecond: number): SiteFetcher {
  const settings = v.parse(WebsiteSettings, {
    start_urls: [`${site.base}/`],
    intranet_hosts: ['127.0.0.1'],
    requests_per_second: requestsPerSecond,
    page_timeout_ms: 120_000,
  });
  return new SiteFetcher(settings, undefined, testConfig(), new AbortController().signal);
}

/**
 * Lets the event loop run (I/O included) without advancing the mocked clock until `ready()`
 * holds, then `ms` of real time more: a request the limiter let through reaches the server
 * meanwhile; one it holds cannot, whatever the machine's load.
 */
async function drain(ready: () => boolean, ms = 50): Promise<void> {
  const give = performance.now() + 60_000;
  while (!ready() && performance.now() < give) await new Promise((r) => setImmediate(r));
  const end = performance.now() + ms;
  while (performance.now() < end) await new Promise((r) => setImmediate(r));
}

const pageRequests = () => site.requests.filter((r) => r.path !== '/robots.txt');

/**
 * Fetch the pages at once, then advance the clock by `step` ms after each arrival; the clock's
 * time of each arrival.
 */
async function arrivals(f: SiteFetcher, urls: string[], step: number): Promise<number[]> {
  const pending = urls.map((u) => f.fetch(u));
  for (let i = 0; i < urls.length; i++) {
    await drain(() => pageRequests().length > i);
    mock.timers.tick(step);
  }
  await Promise.all(pending);
  return pageRequests().map((r) => r.at);
}

describe('website request rate', () => {
  it('spaces the requests to one host by 1 / requests_per_second', async () => {
    const times = await arrivals(
      fetcher(2),
      ['/a', '/b', '/c'].map((p) => `${site.base}${p}`),
      500,
    );
    assert.deepEqual(times, [0, 500, 1000]);
  });

  it("follows the site's Crawl-delay when it asks for more", async () => {
    site.pages.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 3\n' });
    const f = fetcher(1000);
    await f.robots(site.base);
    mock.timers.tick(3000);
    const times = await arrivals(
      f,
      ['/a', '/b'].map((p) => `${site.base}${p}`),
      3000,
    );
    assert.deepEqual(times, [3000, 6000]);
  });

  it('gives each host (and port) its own slots', async () => {
    const other = await startSite();
    try {
      other.pages.set('/b', { type: 'text/plain', body: 'another site' });
      const f = fetcher(1);
      const first = [f.fetch(`${site.base}/a`), f.fetch(`${site.base}/c`), f.fetch(`${other.base}/b`)];
      await drain(() => site.requests.length > 0 && other.requests.length > 0);
      assert.deepEqual([site.requests.length, other.requests.length], [1, 1], 'the other site does not wait');
      mock.timers.tick(1000);
      await Promise.all(first);
      assert.deepEqual(
        site.requests.map((r) => r.at),
        [0, 1000],
      );
      assert.equal(other.requests[0].at, 0);
    } finally {
      await other.close();
    }
  });
});
