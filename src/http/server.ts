/**
 * The HTTP edge: the Node HTTP server the app is served on, with every answer
 * Node would otherwise give by itself turned into the spec's `{detail}` envelope.
 *
 * - Requests Node's parser refuses (`clientError`): a request line plus header
 *   fields over `maxHeaderBytes` is 431, a method Node does not know is 405 on a
 *   known path (with `Allow`) and 404 elsewhere, a timeout 408, anything else
 *   malformed 400. The connection is closed after the answer.
 * - CONNECT (this server is no proxy) is 405, `Expect` other than 100-continue 417.
 * - An HTTP/1.1 request without Host is 400; a target or Host the adapter cannot
 *   make a URL of is 400.
 * Everything else goes to the app through @hono/node-server's request listener.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Logger } from '../log.ts';

export interface EdgeOptions {
  /** Largest request line plus header fields (Node's maxHeaderSize); beyond it 431. */
  maxHeaderBytes: number;
  /** Methods served on a path, empty for an unknown path (app.ts `allowedMethods`). */
  allowedMethods: (path: string) => string[];
  log: Logger;
}

/** A complete HTTP/1.1 answer with a JSON `{detail}` body that closes the connection. */
export function rawJsonAnswer(status: number, detail: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ detail });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function sendJson(res: ServerResponse, status: number, detail: string): void {
  const body = JSON.stringify({ detail });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

/** The path of a request target (`/a/b?x` -> `/a/b`); '' for a target that is not a path. */
function pathOf(target: string): string {
  if (!target.startsWith('/')) return '';
  const q = target.search(/[?#]/);
  return q < 0 ? target : target.slice(0, q);
}

/** 405 with `Allow` on a known path, else 404: the app's answer to a method it does not serve. */
function unknownMethodAnswer(allowed: string[], method: string): string {
  if (allowed.length === 0) return rawJsonAnswer(404, 'Not Found');
  return rawJsonAnswer(405, `Method Not Allowed: ${method}`, { Allow: allowed.join(', ') });
}

/** The answer to a request Node's parser refused; null: close without one (the peer is gone). */
function clientErrorAnswer(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, options: EdgeOptions): string | null {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return rawJsonAnswer(
        431,
        `Request Header Fields Too Large: the request line and header fields exceed ${options.maxHeaderBytes} bytes`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return rawJsonAnswer(408, 'Request Timeout: the request was not received in time');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return rawJsonAnswer(413, 'Content Too Large: chunk extensions are too long');
    case 'HPE_INVALID_METHOD': {
      // The parser stops at the method, so the packet starts with this request's line.
      const line = /^([!-~]{1,32}) (\S{1,8192}) HTTP\/\d\.\d\r?\n/.exec(err.rawPacket?.toString('latin1') ?? '');
      if (line) return unknownMethodAnswer(options.allowedMethods(pathOf(line[2])), line[1]);
      return rawJsonAnswer(400, 'Bad Request: malformed request line');
    }
    default:
      return rawJsonAnswer(400, `Bad Request: malformed HTTP request (${err.code ?? 'parse error'})`);
  }
}

/** An HTTP server for `app` (not listening yet). */
export function createHttpServer(app: Hono<any>, options: EdgeOptions): Server {
  const listener = getRequestListener(app.fetch, {
    // An HTTP/1.0 request without Host (HTTP/1.1 ones are answered below) gets this URL host.
    hostname: 'localhost',
    errorHandler: (err) => {
      const bad = err instanceof RequestError;
      if (!bad) options.log.error('request failed at the HTTP edge', { error: err });
      const detail = bad ? `Bad Request: ${err.message}` : 'Internal Server Error; safe to retry';
      return new Response(JSON.stringify({ detail }), {
        status: bad ? 400 : 500,
        headers: { 'content-type': 'application/json', connection: 'close' },
      });
    },
  });
  const server = createServer(
    { maxHeaderSize: options.maxHeaderBytes, requireHostHeader: false },
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers.host === undefined && req.httpVersion === '1.1') {
        sendJson(res, 400, 'Bad Request: an HTTP/1.1 request needs a Host header');
        return;
      }
      void listener(req, res);
    },
  );
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = clientErrorAnswer(err, options);
    const inResponse = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (answer !== null && socket.writable && !inResponse) socket.end(answer);
    else socket.destroy();
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const allowed = options.allowedMethods(pathOf(req.url ?? ''));
    socket.on('error', () => socket.destroy());
    socket.end(
      rawJsonAnswer(405, 'Method Not Allowed: CONNECT (this server is not a proxy)', { Allow: allowed.join(', ') }),
    );
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    sendJson(res, 417, `Expectation Failed: only "Expect: 100-continue" is supported`);
  });
  return server;
}
