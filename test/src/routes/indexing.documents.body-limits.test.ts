/**
 * POST /api/indexing/documents over a real HTTP server, for bodies that must not be
 * read whole: a body announced over MAX_REQUEST_BYTES gets 413 before any of it is
 * read; a single document whose binary passes INDEXING_API_MAX_BINARY_BYTES gets its
 * 422 while the client still holds most of the body (the server read less than was
 * announced), and the connection closes; a large binary within the limits is stored
 * in a blob file while it arrives, indexed from it, and the file is removed after the
 * commit.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { allowedMethods } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/http/server.ts';
import { silentLogger } from '../../../src/log.ts';
import { docsHarness, type DocsHarness } from '../../support/documents.ts';

const MAX_BINARY = 3_000_000;
const MAX_REQUEST = 50_000_000;
let h: DocsHarness;
let server: Server;
let port: number;
const sockets = new Set<Socket>();

before(async () => {
  h = await docsHarness({
    env: { INDEXING_API_MAX_BINARY_BYTES: String(MAX_BINARY), MAX_REQUEST_BYTES: String(MAX_REQUEST) },
  });
  assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
  server = createHttpServer(h.app, {
    maxHeaderBytes: 16 * 1024,
    allowedMethods: (path) => allowedMethods(h.app, path),
    log: silentLogger,
  });
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

interface Held {
  status: number;
  headers: string;
  body: any;
  /** Bytes the server's socket had read when the answer was complete. */
  serverRead: number;
}

/**
 * Sends the head and then `body` in pieces, as the socket drains, but never more than `body`:
 * the body announced is longer, so an answer proves the server did not wait for the rest.
 */
function postAndHold(contentLength: number, body: Uint8Array): Promise<Held> {
  return new Promise((resolve, reject) => {
    const known = new Set(sockets);
    const c = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    c.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      const text = data.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (split < 0 || !length || data.length < split + 4 + Number(length[1])) return;
      const mine = [...sockets].find((s) => !known.has(s));
      resolve({
        status: Number(text.slice(9, 12)),
        headers: text.slice(0, split).toLowerCase(),
        body: JSON.parse(data.subarray(split + 4).toString('utf8')),
        serverRead: mine?.bytesRead ?? -1,
      });
      c.destroy();
    });
    c.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? undefined : reject(err)));
    c.write(
      `POST /api/indexing/documents HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${h.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`,
    );
    let at = 0;
    const pump = () => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 65_536);
        at += piece.length;
        if (!c.write(piece)) return void c.once('drain', pump);
      }
    };
    pump();
  });
}

describe('push bodies that are not read whole', () => {
  test('a body announced over MAX_REQUEST_BYTES is 413 before any of it is read', async () => {
    const res = await postAndHold(MAX_REQUEST + 1, new Uint8Array(0));
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, { detail: `Request body exceeds the limit of ${MAX_REQUEST} bytes` });
    assert.match(res.headers, /connection: close/);
  });

  test('a single document whose binary passes the limit is 422 before the rest is read', async () => {
    const head =
      '{"documents": {"datasource": "wiki", "id": "big", "file_type": "file", "body": {"mime_type": "text/plain", "binary_base64": "';
    // 40 MB announced; 6 MB offered (past the 4 MB of Base64 the limit allows), the rest never sent.
    const offered = new TextEncoder().encode(head + 'QUFB'.repeat(1_500_000));
    const res = await postAndHold(40_000_000, offered);
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'documents', 'body', 'binary_base64']);
    assert.equal(res.body.detail[0].msg, `Value error, decoded binary_base64 exceeds the limit of ${MAX_BINARY} bytes`);
    assert.match(res.headers, /connection: close/);
    assert.ok(res.serverRead < offered.length + 2048, `server read ${res.serverRead} of 40,000,000 announced`);
    assert.deepEqual(await readdir(join(h.dir, 'documents', 'blobs')), [], 'no blob file is left');
  });

  test('a large binary within the limits is stored while it arrives, indexed from its file, then removed', async () => {
    const text = 'walrus tusks and narwhal horns '.repeat(80_000); // 2.5 MB
    const body = new TextEncoder().encode(
      JSON.stringify({
        documents: [
          {
            datasource: 'wiki',
            id: 'tusks',
            title: 'tusks.txt',
            file_type: 'file',
            body: { mime_type: 'text/plain', binary_base64: Buffer.from(text).toString('base64') },
          },
        ],
      }),
    );
    const res = await postAndHold(body.length, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.results[0].outcome, 'sent');
    assert.equal((await readdir(join(h.dir, 'documents', 'blobs'))).length, 1, 'the binary waits in a blob file');
    await h.commit();
    const got = h.index.reader.searcher().get('wiki:tusks');
    assert.equal(got?.stored.file_size, Buffer.byteLength(text));
    for (let i = 0; i < 50 && (await readdir(join(h.dir, 'documents', 'blobs'))).length > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await readdir(join(h.dir, 'documents', 'blobs')), [], 'removed once committed');
  });
});
