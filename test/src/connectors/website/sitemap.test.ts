/** Sitemaps: url sets and sitemap indexes, namespace prefixes, CDATA and entities, gzip, the URL cap. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap, SITEMAP_MAX_URLS, sitemapText } from '../../../../src/connectors/website/sitemap.ts';

test('a url set lists its locations, decoded', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://a.example/one?x=1&amp;y=2 </loc><lastmod>2026-01-01</lastmod></url>
  <url><loc><![CDATA[https://a.example/two?a=<b>]]></loc></url>
  <url><LOC>https://a.example/caf&#233;</LOC></url>
  <url><loc></loc></url>
</urlset>`;
  assert.deepEqual(parseSitemap(xml), {
    kind: 'urlset',
    locs: ['https://a.example/one?x=1&y=2', 'https://a.example/two?a=<b>', 'https://a.example/café'],
  });
});

test('a sitemap index lists sitemaps; prefixed elements count', () => {
  const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
<sm:sitemap><sm:loc>https://a.example/s1.xml</sm:loc></sm:sitemap>
<sm:sitemap><sm:loc>https://a.example/s2.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>`;
  assert.deepEqual(parseSitemap(xml), {
    kind: 'index',
    locs: ['https://a.example/s1.xml', 'https://a.example/s2.xml.gz'],
  });
});

test('gzip-compressed files are inflated; locations are capped; a truncated file ends the scan', () => {
  const xml = '<urlset><url><loc>https://a.example/z</loc></url></urlset>';
  assert.equal(sitemapText(gzipSync(xml)), xml);
  assert.equal(sitemapText(new TextEncoder().encode(xml)), xml);
  const many = `<urlset>${'<url><loc>https://a.example/p</loc></url>'.repeat(SITEMAP_MAX_URLS + 5)}</urlset>`;
  assert.equal(parseSitemap(many).locs.length, SITEMAP_MAX_URLS);
  assert.deepEqual(parseSitemap('<urlset><url><loc>https://a.example/cut').locs, []);
  assert.deepEqual(parseSitemap('<urlset><url><loc><![CDATA[https://a.example/cut').locs, []);
});
