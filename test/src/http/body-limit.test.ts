/**
 * requestBodyLimit over a real HTTP server: a body announced by Content-Length
 * is refused by that number before it is read, a chunked body is counted while
 * it is read, bodies within the limit arrive intact either way, and requests
 * without a body pass.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { requestBodyLimit } from '../../../src/http/body-limit.ts';

const LIMIT = 1000;
let server: ServerType;
let port: number;

before(async () => {
  const app = new Hono();
  app.use('*', requestBodyLimit({ maxSize: LIMIT, onError: (c) => c.json({ detail: 'too large' }, 413) }));
  app.get('/echo', (c) => c.json({ bytes: 0 }));
  app.post('/echo', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return c.json({ bytes: bytes.byteLength, text: new TextDecoder().decode(bytes) });
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** POST `chunks` with Content-Length (`chunked: false`) or Transfer-Encoding: chunked. */
function post(chunks: string[], chunked: boolean): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const total = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/echo',
        headers: chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err),
    );
    for (const c of chunks) req.write(c);
    req.end();
  });
}

test('a Content-Length body within the limit arrives intact', async () => {
  const text = 'ä'.repeat(LIMIT / 2);
  const res = await post([text], false);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { bytes: LIMIT, text });
});

test('a Content-Length body above the limit is refused with 413', async () => {
  const res = await post(['x'.repeat(LIMIT + 1)], false);
  assert.equal(res.status, 413);
  assert.deepEqual(res.body, { detail: 'too large' });
});

test('a chunked body is counted while read: within the limit it arrives, above it is 413', async () => {
  const ok = await post(['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(200)], true);
  assert.equal(ok.status, 200);
  assert.equal(ok.body.bytes, LIMIT);
  assert.equal(ok.body.text, 'a'.repeat(400) + 'b'.repeat(400) + 'c'.repeat(200));
  const over = await post(['a'.repeat(600), 'b'.repeat(600)], true);
  assert.equal(over.status, 413);
});

test('requests without a body pass', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/echo`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { bytes: 0 });
});
