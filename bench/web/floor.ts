/**
 * The floor of "Enter to first result painted" on this machine and browser:
 * a page with only a query box and one result line, answered at once by a
 * bare node:http server. Measured interleaved with the search page, it says
 * how much of the search page's time is the browser's navigation itself.
 */
import { createServer, type Server } from 'node:http';

const PAGE = (q: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body>` +
  `<form action="/"><input id="q" name="q"></form>` +
  `<h3 class="result" elementtiming="first-result">Result for ${q.replace(/[^a-z ]/gi, '')}</h3></body></html>`;

export async function startFloorServer(): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.end(PAGE(q));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
