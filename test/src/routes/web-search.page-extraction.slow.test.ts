/**
 * POST /api/beta/web_search reads crawled HTML and PDF pages through the extractors' worker pool
 * (PageExtractors injected into the service): the content of a crawled hit is what the pool
 * answered, and a page the pool cannot read (wall-time TIMEOUT, ABORTED at the page's time limit,
 * OVERLOADED, CORRUPT) keeps the provider's snippet, as any other page that cannot be read; the
 * answer is still 200. End to end: a page whose parse never finishes in a real pool worker is
 * aborted at the crawler's page time limit, its worker is replaced, and the hit keeps its snippet.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  ExtractionError,
  type ExtractionErrorCode,
  ExtractionPool,
  type JobRunner,
  type PoolJob,
} from '../../../extractors/index.ts';
import { poolPageExtractors } from '../../../src/websearch/page-content.ts';
import type { WebSearchResult } from '../../../src/websearch/types.ts';
import {
  type FakeProviderState,
  providerState,
  startFakeBrave,
  startServer,
  startSite,
  type TestServer,
} from '../../support/fake-web.ts';
import { webSearchApp, webSearchConfig, type WebSearchApp } from '../../support/websearch.ts';

const hangWorker = new URL('../../extractors/helpers/hang-worker.ts', import.meta.url);

let site: TestServer;
let brave: TestServer;
let state: FakeProviderState;

const hit = (base: string, path: string) => ({
  url: `${base}${path}`,
  title: `Hit ${path}`,
  description: `Snippet of ${path}`,
});
const text = (job: PoolJob) => new TextDecoder().decode(job.bytes);

before(async () => {
  state = providerState();
  site = await startSite();
  brave = await startFakeBrave(state);
});
after(() => Promise.all([site.close(), brave.close()]));
beforeEach(() => Object.assign(state, providerState()));

async function search(app: WebSearchApp): Promise<WebSearchResult[]> {
  const res = await app.request({ queries: ['pages'], mode: 'search' });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json as WebSearchResult[];
}

describe('web search page extraction in the worker pool', () => {
  for (const code of ['TIMEOUT', 'ABORTED', 'OVERLOADED', 'CORRUPT'] as ExtractionErrorCode[]) {
    it(`a page failing in the pool with ${code} keeps its snippet; the other pages get the pool's content`, async () => {
      const jobs: PoolJob[] = [];
      const pool = {
        run: async (job: PoolJob) => {
          jobs.push(job);
          if (text(job).includes('Article 2') || job.mediaType === 'application/pdf')
            throw new ExtractionError(code, `pool: ${code}`);
          return {
            title: 'Pool title',
            description: 'Pool description',
            text: `Pool text of job ${jobs.length}`,
            truncated: false,
          };
        },
      } as unknown as JobRunner;
      state.hits = [hit(site.url, '/article/1'), hit(site.url, '/article/2'), hit(site.url, '/doc.pdf')];
      const app = await webSearchApp(webSearchConfig({ brave: brave.url }), { extractors: poolPageExtractors(pool) });
      const results = await search(app);
      assert.equal(jobs.length, 3);
      assert.deepEqual(jobs.map((j) => j.kind ?? 'extract').sort(), ['extract', 'main-content', 'main-content']);
      assert.match(results[0].content, /^Pool text of job \d$/);
      assert.equal(results[1].content, 'Snippet of /article/2');
      assert.equal(results[2].content, 'Snippet of /doc.pdf');
    });
  }

  it('a page whose parse never finishes in a real worker is aborted at the page time limit and keeps its snippet', async () => {
    const hanging = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=x-test-hang' }); // the test worker spins on this charset
      res.end('<html><body><p>Never parsed</p></body></html>');
    });
    const real = new ExtractionPool({ size: 1, workerUrl: hangWorker });
    const jobs: PoolJob[] = [];
    const pool: JobRunner = {
      run: (job) => {
        jobs.push(job);
        return real.run(job);
      },
    };
    try {
      state.hits = [hit(hanging.url, '/page')];
      const config = webSearchConfig({ brave: brave.url, env: { CRAWLER_PAGE_TIMEOUT_MS: '2000' } });
      const results = await search(await webSearchApp(config, { extractors: poolPageExtractors(pool) }));
      assert.equal(jobs.length, 1);
      assert.equal(jobs[0].kind, 'main-content');
      assert.deepEqual(
        results.map((r) => r.content),
        ['Snippet of /page'],
      );
      assert.equal(real.replacements, 1);
    } finally {
      await Promise.all([real.close(), hanging.close()]);
    }
  });
});
