/**
 * requestBodyLimit over a real HTTP server: a body whose Content-Length passes the
 * limit is refused before any of it is read, a chunked body is refused at the chunk
 * that passes the limit while the client still holds the rest (the server's socket
 * has read less than the client would send), bodies within the limit arrive intact
 * either way, and requests without a body pass. Memory admission: a body that does
 * not fit the in-flight budget waits for room, and is answered 503 with Retry-After
 * when none comes in time; a chunked body without room is refused at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { Hono } from 'hono';
import { BodyBudget } from '../../../src/http/admission.ts';
import { requestBodyLimit } from '../../../src/http/body-limit.ts';
import { createHttpServer } from '../../../src/http/server.ts';
import { ServiceError } from '../../../src/errors.ts';
import { silentLogger } from '../../../src/log.ts';

const LIMIT = 1000;
const BUDGET = 1500;
let server: Server;
let port: number;
const sockets = new Set<Socket>();
const budget = new BodyBudget(BUDGET, 300);
/** Requests to /hold wait for this gate after reading their body. */
let gate: Promise<void> = Promise.resolve();

before(async () => {
  const app = new Hono();
  app.use('*', requestBodyLimit({ maxSize: LIMIT, budget }));
  app.get('/echo', (c) => c.json({ bytes: 0 }));
  app.post('/echo', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return c.json({ bytes: bytes.byteLength, text: new TextDecoder().decode(bytes) });
  });
  app.post('/hold', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    await gate;
    return c.json({ bytes: bytes.byteLength });
  });
  app.onError((err, c) =>
    err instanceof ServiceError
      ? c.json({ detail: err.message }, err.status as 413, err.headers)
      : c.json({ detail: String(err) }, 500),
  );
  server = createHttpServer(app, { maxHeaderBytes: 16 * 1024, allowedMethods: () => [], log: silentLogger });
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** POST `chunks` with Content-Length (`chunked: false`) or Transfer-Encoding: chunked. */
function post(path: string, chunks: string[], chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const total = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(data) }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err),
    );
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/**
 * Sends `head` and `body` on a raw connection and never ends it: the answer must come while the
 * client still holds the rest. Resolves with the status line, the JSON body and the bytes the
 * server's socket had read when the answer arrived.
 */
function sendAndHold(head: string, body: string): Promise<{ statusLine: string; body: any; serverRead: number }> {
  return new Promise((resolve, reject) => {
    const before = new Set(sockets);
    const c = connect(port, '127.0.0.1');
    let data = '';
    c.setEncoding('latin1');
    c.on('data', (d) => {
      data += d;
      const split = data.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(data);
      if (split < 0 || !length || data.length < split + 4 + Number(length[1])) return;
      const mine = [...sockets].find((s) => !before.has(s));
      resolve({
        statusLine: data.slice(0, data.indexOf('\r\n')),
        body: JSON.parse(data.slice(split + 4)),
        serverRead: mine?.bytesRead ?? -1,
      });
      c.destroy();
    });
    c.on('error', reject);
    c.write(head + body);
  });
}

test('a Content-Length body within the limit arrives intact', async () => {
  const text = 'ä'.repeat(LIMIT / 2);
  const res = await post('/echo', [text], false);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { bytes: LIMIT, text });
});

test('a Content-Length body above the limit is refused before any of it is read', async () => {
  // The client announces 1,000,000 bytes and sends none: the answer cannot have waited for them.
  const head = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n`;
  const res = await sendAndHold(head, '');
  assert.equal(res.statusLine, 'HTTP/1.1 413 Payload Too Large');
  assert.deepEqual(res.body, { detail: `Request body exceeds the limit of ${LIMIT} bytes` });
  assert.equal(res.serverRead, Buffer.byteLength(head));
});

test('a chunked body is refused at the chunk that passes the limit, without reading the rest', async () => {
  const head = `POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const chunk = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n`;
  const sent = chunk('a'.repeat(600)) + chunk('b'.repeat(600));
  const res = await sendAndHold(head, sent);
  assert.equal(res.statusLine, 'HTTP/1.1 413 Payload Too Large');
  // Everything the client sent, and nothing it would have sent after (it never ends the body).
  assert.ok(res.serverRead <= Buffer.byteLength(head + sent), `${res.serverRead}`);
});

test('a chunked body within the limit arrives intact; above it is 413 and closes the connection', async () => {
  const ok = await post('/echo', ['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(200)], true);
  assert.equal(ok.status, 200);
  assert.equal(ok.body.bytes, LIMIT);
  assert.equal(ok.body.text, 'a'.repeat(400) + 'b'.repeat(400) + 'c'.repeat(200));
  const over = await post('/echo', ['a'.repeat(600), 'b'.repeat(600)], true);
  assert.equal(over.status, 413);
  assert.equal(over.headers.connection, 'close');
});

test('requests without a body pass', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/echo`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { bytes: 0 });
});

test('a body that does not fit the in-flight budget waits for room and gets it when a request ends', async () => {
  let open!: () => void;
  gate = new Promise((r) => (open = r));
  const first = post('/hold', ['x'.repeat(LIMIT)], false);
  while (budget.inFlight < LIMIT) await new Promise((r) => setImmediate(r));
  const second = post('/hold', ['y'.repeat(LIMIT)], false);
  while (budget.waiting === 0) await new Promise((r) => setImmediate(r));
  assert.equal(budget.inFlight, LIMIT);
  open();
  assert.deepEqual((await first).body, { bytes: LIMIT });
  assert.deepEqual((await second).body, { bytes: LIMIT });
  assert.equal(budget.inFlight, 0);
});

test('past the wait, a request without room is 503 with Retry-After; a chunked one is refused at once', async () => {
  let open!: () => void;
  gate = new Promise((r) => (open = r));
  const first = post('/hold', ['x'.repeat(LIMIT)], false);
  while (budget.inFlight < LIMIT) await new Promise((r) => setImmediate(r));
  const waited = await post('/hold', ['y'.repeat(LIMIT)], false);
  assert.equal(waited.status, 503);
  assert.equal(waited.headers['retry-after'], '1');
  assert.match(waited.body.detail, /^Service Unavailable: /);
  const chunked = await post('/hold', ['z'.repeat(300), 'z'.repeat(300)], true);
  assert.equal(chunked.status, 503);
  assert.equal(chunked.headers['retry-after'], '1');
  open();
  assert.equal((await first).status, 200);
  assert.equal(budget.inFlight, 0);
});
