/**
 * The website connector against a real HTTP server on 127.0.0.1: start URL and sitemap, same
 * host only, robots.txt, canonical URLs and redirects, main content, breadcrumb and dates;
 * later runs ask with If-None-Match and push only changed pages, and a page that is gone (404)
 * leaves the index; noindex and nofollow; depth and page limits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectorHarness, type ConnectorHarness } from '../../../support/connectors.ts';
import { html, startSite, type Site } from '../../../support/site.ts';

let h: ConnectorHarness;
let site: Site;
let id: string;
before(async () => {
  h = await connectorHarness();
  site = await startSite();
  const b = site.base;
  site.pages.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' });
  site.pages.set('/sitemap.xml', {
    type: 'application/xml',
    body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${b}/orphan</loc></url></urlset>`,
  });
  site.pages.set('/', {
    etag: '"home-1"',
    body: html('Intranet home', 'Welcome to the intranet.', [
      '/leave',
      '/moved',
      '/private/salaries',
      'https://elsewhere.example/x',
      '/leave#section',
    ]),
  });
  site.pages.set('/leave', {
    etag: '"leave-1"',
    lastModified: 'Wed, 07 Jan 2026 10:00:00 GMT',
    body: html('Leave policy', 'Annual leave is thirty days.', ['/deep/1']),
  });
  site.pages.set('/moved', { status: 301, location: '/travel' });
  site.pages.set('/travel', { etag: '"travel-1"', body: html('Travel', 'Book trains for trips under 500 km.') });
  site.pages.set('/private/salaries', { body: html('Salaries', 'secret') });
  site.pages.set('/orphan', {
    etag: '"orphan-1"',
    body: html('Orphan', 'Only the sitemap links here.', [], `<link rel="canonical" href="${b}/orphan?ref=canonical">`),
  });
  site.pages.set('/deep/1', { etag: '"d1"', body: html('Deep one', 'one level down', ['/deep/2']) });
  site.pages.set('/deep/2', { etag: '"d2"', body: html('Deep two', 'two levels down', ['/deep/3']) });
  site.pages.set('/deep/3', { body: html('Deep three', 'too deep') });
  id = (
    await h.create({
      name: 'Intranet',
      type: 'intranet_online',
      datasource: 'intranet',
      settings: {
        start_urls: [`${b}/`],
        sitemaps: [`${b}/sitemap.xml`],
        intranet_hosts: ['127.0.0.1'],
        max_depth: 3,
        requests_per_second: 1000,
      },
    })
  ).id;
});
after(async () => {
  await h.close();
  await site.close();
});

const key = (path: string) => `${site.base}${path}`;

describe('website connector', () => {
  it('crawls the start URL, links and sitemap within the host, honouring robots.txt and depth', async () => {
    const run = await h.run(id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.deepEqual(run.failures, []);
    const indexed = ['/', '/leave', '/travel', '/orphan?ref=canonical', '/deep/1', '/deep/2'];
    for (const p of indexed) assert.ok(h.doc('intranet', key(p)), `${p} is indexed`);
    assert.equal(h.ids('intranet').length, indexed.length);
    assert.equal(h.doc('intranet', key('/deep/3')), undefined, 'beyond max_depth 3 (home, leave, deep/1, deep/2)');
    const paths = site.requests.map((r) => r.path);
    assert.ok(!paths.includes('/private/salaries'), 'robots.txt disallows it');
    assert.ok(!paths.includes('/deep/3'));
    assert.equal(paths.filter((p) => p === '/leave').length, 1, 'a fragment is the same page');
  });

  it('indexes the main content with title, breadcrumb, URL and Last-Modified', async () => {
    const leave = h.doc('intranet', key('/leave'))!;
    assert.equal(leave.stored.title, 'Leave policy');
    assert.equal(leave.stored.path_preview, key('/leave'));
    assert.equal(leave.stored.path, `${new URL(site.base).host}/leave`);
    assert.equal(leave.stored.last_modified, '2026-01-07T10:00:00.000Z');
    assert.deepEqual(leave.keywords.category, ['intranet_online']);
    assert.deepEqual(leave.keywords.file_type, ['html']);
  });

  it('asks again with If-None-Match, pushes only what changed and deletes what is gone', async () => {
    site.requests.length = 0;
    site.pages.set('/leave', {
      etag: '"leave-2"',
      lastModified: 'Thu, 08 Jan 2026 10:00:00 GMT',
      body: html('Leave policy', 'Annual leave is thirty-two days.', ['/deep/1']),
    });
    site.pages.delete('/travel');
    const run = await h.run(id);
    assert.equal(run.state, 'completed', JSON.stringify(run));
    assert.equal(run.counts.sent, 1, JSON.stringify(run.counts));
    assert.equal(run.counts.deleted, 1);
    const home = site.requests.find((r) => r.path === '/');
    assert.equal(home?.headers['if-none-match'], '"home-1"');
    assert.equal(h.doc('intranet', key('/travel')), undefined);
    assert.equal(h.doc('intranet', key('/leave'))?.stored.last_modified, '2026-01-08T10:00:00.000Z');
  });

  it('keeps noindex pages out of the index and does not follow nofollow links', async () => {
    site.pages.set('/', {
      etag: '"home-2"',
      body: html('Intranet home', 'Welcome.', ['/leave', '/hidden', '/nofollow-page']),
    });
    site.pages.set('/hidden', { body: html('Hidden', 'not for search', [], '<meta name="robots" content="noindex">') });
    site.pages.set('/nofollow-page', {
      body: html('No follow', 'links not followed', ['/behind-nofollow'], '<meta name="robots" content="nofollow">'),
    });
    site.pages.set('/behind-nofollow', { body: html('Behind', 'never reached') });
    site.requests.length = 0;
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    assert.equal(h.doc('intranet', key('/hidden')), undefined);
    assert.ok(h.doc('intranet', key('/nofollow-page')));
    assert.ok(!site.requests.some((r) => r.path === '/behind-nofollow'));
  });

  it('stops at the page limit and then deletes nothing', async () => {
    const before = h.ids('intranet').length;
    const patched = await h.admin('PATCH', `/connectors/${id}`, {
      settings: {
        start_urls: [`${site.base}/`],
        intranet_hosts: ['127.0.0.1'],
        max_pages: 2,
        requests_per_second: 1000,
      },
    });
    assert.equal(patched.status, 200, patched.text);
    const run = await h.run(id);
    assert.equal(run.state, 'completed');
    console.log(
      JSON.stringify(run),
      site.requests.map((r) => r.path),
    );
    assert.match(run.incomplete ?? '', /page limit of 2/);
    assert.equal(run.counts.deleted, 0);
    assert.equal(h.ids('intranet').length, before);
  });
});
