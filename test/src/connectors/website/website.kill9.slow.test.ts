/**
 * The website connector's `connector run <id>` killed with SIGKILL in the middle of crawling a
 * real HTTP server on 127.0.0.1 (a sitemap of pages with ETags), several times, then run to the
 * end: every page is indexed exactly once with its content, and a run after that finds every
 * page unchanged (each answered 304 to its If-None-Match).
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { connectorHarness, tempDir, killThreeTimesThenFinish } from '../../../support/connectors.ts';
import { html, startSite } from '../../../support/site.ts';

test(
  'a website run killed with SIGKILL resumes without losing or duplicating a page',
  { timeout: 600_000 },
  async () => {
    const n = 2000;
    const site = await startSite();
    const dataDir = await tempDir('website-kill9-');
    try {
      const urls: string[] = [];
      for (let i = 0; i < n; i++) {
        site.pages.set(`/p/${i}`, { etag: `"p${i}"`, body: html(`Page ${i}`, `words of page ${i} tok${i}`) });
        urls.push(`<url><loc>${site.base}/p/${i}</loc></url>`);
      }
      site.pages.set('/', { etag: '"home"', body: html('Home', 'The start page.') });
      site.pages.set('/sitemap.xml', {
        type: 'application/xml',
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
      });
      const total = n + 1;
      const setup = await connectorHarness({ dir: dataDir });
      const c = await setup.create({
        name: 'Kill site',
        type: 'intranet_online',
        datasource: 'kill_site',
        settings: {
          start_urls: [`${site.base}/`],
          sitemaps: [`${site.base}/sitemap.xml`],
          intranet_hosts: ['127.0.0.1'],
          requests_per_second: 1000,
          concurrency: 8,
        },
      });
      await setup.close(false);

      const final = await killThreeTimesThenFinish(dataDir, c.id, 400);
      assert.equal(final.incomplete, null);
      assert.equal(final.counts.failed, 0);
      assert.equal(final.counts.deleted, 0);
      assert.ok(final.counts.unchanged + final.counts.already_indexed >= 400, JSON.stringify(final.counts));
      assert.equal(final.counts.unchanged + final.counts.sent + final.counts.already_indexed, total);

      const h = await connectorHarness({ dir: dataDir });
      try {
        assert.equal(h.ids('kill_site').length, total, 'every page once');
        const searcher = h.index.reader.searcher();
        try {
          const hits = searcher.search({ query: '"words of page 1234"', limit: 10, language: 'en' }).hits;
          assert.deepEqual(
            hits.map((x) => x.stored.title),
            ['Page 1234'],
            'the content is indexed',
          );
        } finally {
          h.index.reader.release(searcher);
        }
        const again = await h.run(c.id);
        assert.deepEqual(again.counts, {
          unchanged: total,
          sent: 0,
          already_indexed: 0,
          skipped: 0,
          failed: 0,
          deleted: 0,
        });
      } finally {
        await h.close(false);
      }
    } finally {
      await site.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
);
