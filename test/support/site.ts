/**
 * A small website on 127.0.0.1 for the website connector's tests: pages set per path (status,
 * type, body, ETag, Last-Modified, redirect, delay, required Authorization), answering
 * conditional requests with 304 when the ETag matches, and a log of every request.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageSpec {
  status?: number;
  type?: string;
  body?: string | Uint8Array;
  etag?: string;
  lastModified?: string;
  location?: string;
  /** Milliseconds before answering. */
  delayMs?: number;
}

export interface Site {
  base: string;
  pages: Map<string, PageSpec>;
  /** Every request, with the clock's time (`Date.now()`) when it arrived. */
  requests: { path: string; headers: IncomingHttpHeaders; at: number }[];
  /** Require this Authorization header on every request (else 401). */
  authorization?: string;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const pages = new Map<string, PageSpec>();
  const requests: Site['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const site = { pages, requests } as Site;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers, at: Date.now() });
    const answer = () => {
      if (site.authorization && req.headers.authorization !== site.authorization) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="intranet"' }).end('unauthorized');
        return;
      }
      const page = pages.get(path);
      if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      if (page.location) return void res.writeHead(page.status ?? 301, { location: page.location }).end();
      if (page.etag && req.headers['if-none-match'] === page.etag) return void res.writeHead(304).end();
      const headers: Record<string, string> = { 'content-type': page.type ?? 'text/html; charset=utf-8' };
      if (page.etag) headers.etag = page.etag;
      if (page.lastModified) headers['last-modified'] = page.lastModified;
      res.writeHead(page.status ?? 200, headers).end(page.body ?? '');
    };
    const delay = pages.get(path)?.delayMs;
    if (delay) {
      const t = setTimeout(() => {
        timers.delete(t);
        if (!res.destroyed) answer();
      }, delay);
      timers.add(t);
    } else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = async () => {
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return site;
}

/** An HTML page with a title, a navigation bar, main text and links. */
export function html(title: string, text: string, links: string[] = [], head = ''): string {
  const nav = '<nav><a href="/">Home</a> | Menu entry that is boilerplate</nav>';
  const anchors = links.map((l) => `<a href="${l}">${l}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body>${nav}<main><h1>${title}</h1><p>${text}</p><p>${anchors}</p></main><footer>Footer text</footer></body></html>`;
}
