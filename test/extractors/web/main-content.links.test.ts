/**
 * Links for crawlers: with `{links: true}` the main content also carries the page's `<a>` and
 * `<area>` hrefs (as written, in order, entities decoded), the canonical URL, the base URL and
 * the robots meta; without it none of them; script and comment content never yields links.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractMainContent } from '../../../extractors/index.ts';

const PAGE = `<!doctype html><html><head>
<title>Intranet</title>
<base href="https://intra.example/docs/">
<link rel="stylesheet" href="/style.css">
<link rel="Canonical" href="https://intra.example/docs/start">
<meta name="robots" content="noindex, follow">
<script>var x = '<a href="/from-script">';</script>
</head><body>
<!-- <a href="/from-comment">x</a> -->
<nav><a href="/nav">Navigation</a></nav>
<main><p>Read the <a href="guide.html?a=1&amp;b=2#part">guide</a> and <a HREF='/faq'>FAQ</a>.</p>
<map><area href="/map-area"></map><a>no href</a><a href="  ">blank</a></main>
</body></html>`;

test('links, canonical, base and robots meta come with the main content when asked', () => {
  const out = extractMainContent(PAGE, 10_000, { links: true });
  assert.deepEqual(out.links, ['/nav', 'guide.html?a=1&b=2#part', '/faq', '/map-area']);
  assert.equal(out.canonical, 'https://intra.example/docs/start');
  assert.equal(out.base, 'https://intra.example/docs/');
  assert.equal(out.robots, 'noindex, follow');
  assert.match(out.text, /Read the guide and FAQ/);
});

test('without the option the answer carries no links', () => {
  const out = extractMainContent(PAGE, 10_000);
  assert.equal(out.links, undefined);
  assert.equal(out.canonical, undefined);
  assert.equal(out.robots, undefined);
});
