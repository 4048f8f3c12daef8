/** The crawler reads compressed bodies as browsers do: zlib-wrapped and raw deflate, and streams cut before their trailer. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { fetchPage } from '../../../src/websearch/crawler.ts';
import { createAddressPolicy } from '../../../src/websearch/ssrf.ts';
import { startServer, type TestServer } from '../../support/fake-web.ts';

const HTML = `<html><body><p>${'encoded words '.repeat(300)}</p></body></html>`;
const bodies: Record<string, [string, Buffer]> = {
  '/deflate-zlib': ['deflate', zlib.deflateSync(HTML)],
  '/deflate-raw': ['deflate', zlib.deflateRawSync(HTML)],
  '/gzip-cut': ['gzip', zlib.gzipSync(HTML).subarray(0, -8)],
  '/br-cut': ['br', zlib.brotliCompressSync(HTML).subarray(0, -2)],
  '/deflate-cut': ['deflate', zlib.deflateSync(HTML).subarray(0, -4)],
};
const fetchText = async (url: string) => {
  const page = await fetchPage(url, {
    userAgent: 'TestCrawler/1.0',
    policy: createAddressPolicy({ allowPrivate: true }),
    maxBytes: 1_000_000,
    maxRedirects: 0,
    signal: AbortSignal.timeout(5000),
  });
  return new TextDecoder().decode(page.body);
};

describe('fetchPage content encodings', () => {
  let site: TestServer;
  before(async () => {
    site = await startServer((_req, res, url) => {
      const [encoding, body] = bodies[url.pathname];
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding });
      res.end(body);
    });
  });
  after(() => site.close());

  it('inflates deflate bodies with and without the zlib wrapper', async () => {
    assert.equal(await fetchText(`${site.url}/deflate-zlib`), HTML);
    assert.equal(await fetchText(`${site.url}/deflate-raw`), HTML);
  });

  it('keeps what decodes of gzip, brotli and deflate bodies that end before their trailer', async () => {
    for (const path of ['/gzip-cut', '/br-cut', '/deflate-cut']) {
      const text = await fetchText(`${site.url}${path}`);
      assert.ok(text.startsWith('<html><body><p>encoded words encoded words'), `${path}: ${text.slice(0, 80)}`);
    }
  });
});
