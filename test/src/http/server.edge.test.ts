/**
 * The HTTP edge (src/http/server.ts) in front of the real app: requests that Node's
 * parser or server would answer by itself (unknown methods, oversized request lines
 * and headers, CONNECT, a missing Host, malformed requests, unsupported Expect) get
 * the spec's `{detail}` envelope with the documented status, and a search URL with an
 * over-long query within the header limit still reaches the app's 422.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { allowedMethods } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/http/server.ts';
import { silentLogger } from '../../../src/log.ts';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { docsHarness, type DocsHarness } from '../../support/documents.ts';

const MAX_HEADER = 24 * 1024;
let h: DocsHarness;
let server: Server;
let port: number;
let personal: string;

before(async () => {
  h = await docsHarness();
  await h.call('POST', '/api/admin/accounts', MASTER, { email: 'reader@example.com' });
  personal = (await h.call('POST', '/api/admin/accounts/reader@example.com/keys', MASTER, {})).body.key;
  server = createHttpServer(h.app, {
    maxHeaderBytes: MAX_HEADER,
    allowedMethods: (path) => allowedMethods(h.app, path),
    log: silentLogger,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Writes `raw` on a new connection and reads one answer until the server closes or its body is complete. */
function exchange(raw: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const c = connect(port, '127.0.0.1');
    let data = '';
    let done = false;
    const finish = () => {
      if (done) return;
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) return;
      const head = data.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const body = data.slice(split + 4);
      if (headers['content-length'] !== undefined && Buffer.byteLength(body) < Number(headers['content-length']))
        return;
      done = true;
      c.destroy();
      resolve({ status: Number(head[0].split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined });
    };
    c.setEncoding('utf8');
    c.on('data', (d) => {
      data += d;
      finish();
    });
    c.on('end', finish);
    c.on('close', () => (done ? undefined : reject(new Error(`no complete answer: ${JSON.stringify(data)}`))));
    c.on('error', () => undefined);
    c.write(raw);
  });
}

const get = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;

describe('HTTP edge envelopes', () => {
  test('an unknown method on a known path is 405 with Allow; on an unknown path 404', async () => {
    const known = await exchange(`FROB /api/beta/search?query=x HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assert.equal(known.status, 405);
    assert.equal(known.headers.allow, 'GET, HEAD');
    assert.deepEqual(known.body, { detail: 'Method Not Allowed: FROB' });
    const unknown = await exchange(`FROB /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { detail: 'Not Found' });
  });

  test('a method Node knows but no route serves is 405 from the app', async () => {
    const res = await exchange(`PROPFIND /api/indexing/documents HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'POST');
    assert.deepEqual(res.body, { detail: 'Method Not Allowed' });
  });

  test('a request line or header fields over the limit are 431', async () => {
    const longUrl = await exchange(get(`/api/beta/search?query=${'a'.repeat(MAX_HEADER)}`));
    assert.equal(longUrl.status, 431);
    assert.match(longUrl.body.detail, new RegExp(`^Request Header Fields Too Large: .* ${MAX_HEADER} bytes$`));
    assert.equal(longUrl.headers.connection, 'close');
    const longHeader = await exchange(get('/healthz', `X-Filler: ${'b'.repeat(MAX_HEADER)}\r\n`));
    assert.equal(longHeader.status, 431);
    assert.equal(typeof longHeader.body.detail, 'string');
  });

  test('a search query over 8,192 characters within the header limit is the 422 of the README', async () => {
    const res = await exchange(
      get(`/api/beta/search?query=${'w'.repeat(9000)}`, `Authorization: Bearer ${personal}\r\nConnection: close\r\n`),
    );
    assert.equal(res.status, 422);
    assert.equal(res.body.detail[0].type, 'string_too_long');
    assert.deepEqual(res.body.detail[0].loc, ['query', 'query']);
  });

  test('CONNECT is answered 405', async () => {
    const res = await exchange(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    assert.equal(res.status, 405);
    assert.match(res.body.detail, /^Method Not Allowed: CONNECT/);
    assert.equal(res.headers.allow, '');
  });

  test('an HTTP/1.1 request without Host, a malformed request and a bad Expect get envelopes', async () => {
    const noHost = await exchange(`GET /healthz HTTP/1.1\r\n\r\n`);
    assert.equal(noHost.status, 400);
    assert.match(noHost.body.detail, /Host header/);
    const http10 = await exchange(`GET /healthz HTTP/1.0\r\n\r\n`);
    assert.equal(http10.status, 200);
    const garbage = await exchange(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n`);
    assert.equal(garbage.status, 400);
    assert.match(garbage.body.detail, /^Bad Request: malformed HTTP request/);
    const both = await exchange(
      `POST /api/indexing/documents HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    assert.equal(both.status, 400);
    assert.equal(typeof both.body.detail, 'string');
    const expect = await exchange(get('/healthz', 'Expect: something-else\r\n'));
    assert.equal(expect.status, 417);
    assert.match(expect.body.detail, /^Expectation Failed/);
  });

  test('a request target the adapter cannot read is 400 with an envelope', async () => {
    const res = await exchange(`GET /a\\b HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /^Bad Request: /);
  });
});
