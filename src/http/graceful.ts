/**
 * Graceful stop of the HTTP server: `stop()` stops accepting connections at
 * once, closes idle keep-alive connections, and lets every in-flight request
 * finish on its connection, which is then closed (`Connection: close` on a
 * response not yet started, the connection ended after a response already
 * streaming). A request that still arrives on an open connection is served the
 * same way. After `graceMs` the remaining connections are cut. The promise
 * resolves once no connection is left.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';

export interface GracefulServer {
  /** Resolves `true` when every request finished within `graceMs`, `false` when some were cut. */
  stop(graceMs: number): Promise<boolean>;
}

export function gracefulServer(server: Server | Http2Server | Http2SecureServer): GracefulServer {
  const http = server as Server;
  const inFlight = new Set<ServerResponse>();
  let stopping = false;

  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    // A response whose headers already went out with keep-alive: its connection ends once it is sent.
    res.once('finish', () => res.socket?.end());
  };
  http.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (stopping) closeAfter(res);
  });

  return {
    stop(graceMs) {
      stopping = true;
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const res of inFlight) closeAfter(res);
      http.closeIdleConnections();
      let cut = false;
      const force = setTimeout(() => {
        cut = true;
        http.closeAllConnections();
      }, graceMs);
      force.unref();
      return closed.then(() => {
        clearTimeout(force);
        return !cut;
      });
    },
  };
}
