/** The crawler's fetch: address checks per hop, redirects, size cap, content types, decompression. */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { CrawlError, fetchPage, type FetchOptions } from '../../../src/websearch/crawler.ts';
import { createAddressPolicy, type AddressPolicy } from '../../../src/websearch/ssrf.ts';
import { startServer, startSite, type TestServer } from '../../support/fake-web.ts';

const allowAll = createAddressPolicy({ allowPrivate: true });
const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({
  userAgent: 'TestCrawler/1.0 (+https://example.invalid)',
  policy: allowAll,
  maxBytes: 1_000_000,
  maxRedirects: 5,
  signal: AbortSignal.timeout(5000),
  ...over,
});

async function rejectsWith(p: Promise<unknown>, code: string): Promise<CrawlError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CrawlError, `expected CrawlError, got ${err}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}`);
}

describe('fetchPage', () => {
  let site: TestServer;
  let secret: TestServer;
  before(async () => {
    site = await startSite();
    secret = await startServer((_req, res) => res.end('<p>secret on 127.0.0.2</p>'), '127.0.0.2');
  });
  after(async () => {
    await site.close();
    await secret.close();
  });

  it('fetches an HTML page and sends the configured User-Agent', async () => {
    const page = await fetchPage(`${site.url}/article/1`, options());
    assert.equal(page.mediaType, 'text/html');
    assert.equal(page.charset, 'utf-8');
    assert.match(new TextDecoder().decode(page.body), /Full body text of article 1/);
    assert.equal(site.requests.at(-1)?.headers['user-agent'], 'TestCrawler/1.0 (+https://example.invalid)');
  });

  it('connects through the checked lookup when a host name resolves to an allowed address', async () => {
    const page = await fetchPage(`http://localhost:${site.port}/article/2`, options());
    assert.match(new TextDecoder().decode(page.body), /Full body text of article 2/);
  });

  it('refuses loopback by literal address, by host name and in legacy notation when private addresses are not allowed', async () => {
    const deny = createAddressPolicy({ allowPrivate: false });
    const before = site.requests.length;
    await rejectsWith(fetchPage(`${site.url}/secret`, options({ policy: deny })), 'BLOCKED_ADDRESS');
    await rejectsWith(fetchPage(`http://localhost:${site.port}/secret`, options({ policy: deny })), 'BLOCKED_ADDRESS');
    await rejectsWith(fetchPage(`http://2130706433:${site.port}/secret`, options({ policy: deny })), 'BLOCKED_ADDRESS');
    await rejectsWith(fetchPage(`http://0x7f.1:${site.port}/secret`, options({ policy: deny })), 'BLOCKED_ADDRESS');
    await rejectsWith(
      fetchPage(`http://[::ffff:127.0.0.1]:${site.port}/secret`, options({ policy: deny })),
      'BLOCKED_ADDRESS',
    );
    await rejectsWith(fetchPage('http://169.254.169.254/latest/meta-data/', options()), 'BLOCKED_ADDRESS');
    await rejectsWith(fetchPage('http://metadata.google.internal/computeMetadata/v1/', options()), 'BLOCKED_ADDRESS');
    assert.equal(site.requests.length, before, 'no request reached the site');
  });

  it('re-checks the address after a redirect: an allowed page redirecting to a refused address is not followed', async () => {
    const only127001: AddressPolicy = (a) => (a === '127.0.0.1' ? null : 'private');
    const target = `${secret.url}/`;
    const err = await rejectsWith(
      fetchPage(`${site.url}/redirect?to=${encodeURIComponent(target)}`, options({ policy: only127001 })),
      'BLOCKED_ADDRESS',
    );
    assert.match(err.message, /127\.0\.0\.2/);
    assert.equal(secret.requests.length, 0);
    // Same redirect through a host name: checked on the resolved address too.
    const viaName = `http://localhost:${site.port}/secret`;
    let hops = 0;
    const onlyFirstHop: AddressPolicy = () => (hops++ === 0 ? null : 'loopback');
    await rejectsWith(
      fetchPage(`${site.url}/redirect?to=${encodeURIComponent(viaName)}`, options({ policy: onlyFirstHop })),
      'BLOCKED_ADDRESS',
    );
  });

  it('follows redirects up to the limit', async () => {
    const page = await fetchPage(`${site.url}/redirect?to=/article/7`, options());
    assert.equal(page.url, `${site.url}/article/7`);
    await rejectsWith(fetchPage(`${site.url}/loop`, options()), 'TOO_MANY_REDIRECTS');
    await rejectsWith(
      fetchPage(`${site.url}/redirect?to=/article/1`, options({ maxRedirects: 0 })),
      'TOO_MANY_REDIRECTS',
    );
  });

  it('cuts text bodies at maxBytes and refuses unreadable types and error statuses', async () => {
    const page = await fetchPage(`${site.url}/long`, options({ maxBytes: 4096 }));
    assert.equal(page.body.byteLength, 4096);
    assert.equal(page.truncated, true);
    await rejectsWith(fetchPage(`${site.url}/image.png`, options()), 'UNSUPPORTED_TYPE');
    await rejectsWith(fetchPage(`${site.url}/missing`, options()), 'HTTP_STATUS');
    await rejectsWith(fetchPage(`${site.url}/doc.pdf`, options({ maxBytes: 100 })), 'TOO_LARGE');
    await rejectsWith(fetchPage('ftp://example.com/file', options()), 'BAD_URL');
    await rejectsWith(fetchPage(`http://user:pw@127.0.0.1:${site.port}/`, options()), 'BAD_URL');
  });

  it('aborts a slow page when its signal fires', async () => {
    await rejectsWith(fetchPage(`${site.url}/slow?ms=3000`, options({ signal: AbortSignal.timeout(100) })), 'ABORTED');
  });

  it('decompresses gzip bodies and caps the decompressed size', async () => {
    const big = `<html><body><p>${'compressible '.repeat(100_000)}</p></body></html>`;
    const gz = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync(big));
    });
    try {
      const page = await fetchPage(`${gz.url}/`, options({ maxBytes: 10_000 }));
      assert.equal(page.body.byteLength, 10_000);
      assert.equal(page.truncated, true);
      assert.match(new TextDecoder().decode(page.body), /^<html><body><p>compressible/);
    } finally {
      await gz.close();
    }
  });
});

describe('fetchPage body reads', () => {
  it('aborts a body that trickles in past the deadline (plain and gzip)', async () => {
    const trickle = await startServer((req, res) => {
      const gz = req.url === '/gz';
      res.writeHead(200, { 'content-type': 'text/html', ...(gz ? { 'content-encoding': 'gzip' } : {}) });
      res.write(gz ? gzipSync('<p>start').subarray(0, 10) : '<p>start');
      const timer = setInterval(() => res.write(gz ? Buffer.alloc(0) : ' more'), 50);
      res.on('close', () => clearInterval(timer));
    });
    try {
      await rejectsWith(fetchPage(`${trickle.url}/plain`, options({ signal: AbortSignal.timeout(300) })), 'ABORTED');
      await rejectsWith(fetchPage(`${trickle.url}/gz`, options({ signal: AbortSignal.timeout(300) })), 'ABORTED');
    } finally {
      await trickle.close();
    }
  });
});
