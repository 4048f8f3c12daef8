/**
 * POST /api/beta/web_search, the charset of crawled pages as browsers find
 * it: a Content-Type charset that is no known encoding is ignored in favour of
 * the page's own declaration (`<meta charset>`, or the XML declaration of an
 * XHTML page); a known one wins over the page's declaration; a UTF-16
 * declaration in ASCII-compatible bytes means UTF-8.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeSharedPool } from '../../../extractors/index.ts';
import type { WebSearchResult } from '../../../src/websearch/types.ts';
import { providerState, startFakeBrave, startServer, type TestServer } from '../../support/fake-web.ts';
import { webSearchApp, webSearchConfig, type WebSearchApp } from '../../support/websearch.ts';

/** "Привет мир" in windows-1251. */
const CYRILLIC = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x20, 0xec, 0xe8, 0xf0]);
const TAIL = ' says the paragraph, long enough to be the main content of this page.</p>';
const pages: Record<string, { type: string; head: string; text?: Buffer }> = {
  '/unknown-header-charset': {
    type: 'text/html; charset=utf8mb4',
    head: '<html><head><meta charset="windows-1251"><title>A</title></head><body><main><p>',
  },
  '/xhtml-declaration': {
    type: 'application/xhtml+xml',
    head: '<?xml version="1.0" encoding="windows-1251"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>B</title></head><body><p>',
  },
  '/known-header-charset': {
    type: 'text/html; charset=windows-1251',
    head: '<html><head><meta charset="utf-8"><title>C</title></head><body><main><p>',
  },
  // A UTF-16 declaration in bytes that are ASCII-compatible means UTF-8.
  '/meta-utf16': {
    type: 'text/html',
    head: '<html><head><meta charset="utf-16"><title>D</title></head><body><main><p>',
    text: Buffer.from('Привет мир'),
  },
};

let site: TestServer;
let brave: TestServer;
let api: WebSearchApp;
const state = providerState();

before(async () => {
  site = await startServer((_req, res, url) => {
    const page = pages[url.pathname];
    res.writeHead(200, { 'content-type': page.type });
    res.end(Buffer.concat([Buffer.from(page.head), page.text ?? CYRILLIC, Buffer.from(`${TAIL}</body></html>`)]));
  });
  brave = await startFakeBrave(state);
  api = await webSearchApp(webSearchConfig({ brave: brave.url }));
});
after(async () => {
  await Promise.all([site.close(), brave.close()]);
  await closeSharedPool();
});

describe('crawled page charsets', () => {
  it('decodes each page in the encoding a browser would use', async () => {
    state.hits = Object.keys(pages).map((path) => ({ url: `${site.url}${path}`, title: path, description: 'snippet' }));
    const res = await api.request({ queries: ['q'] });
    assert.equal(res.status, 200);
    const results = (await res.json()) as WebSearchResult[];
    assert.equal(results.length, 4);
    for (const r of results)
      assert.ok(
        r.content.startsWith('Привет мир says the paragraph'),
        `${r.metadata.title}: ${r.content.slice(0, 40)}`,
      );
  });
});
