/**
 * Fakes of the web-search providers, all on 127.0.0.1 with port 0: a fake
 * Brave Search API (web search and LLM context), a fake SearXNG JSON API and a
 * small web site (articles, a slow page, redirects, PDF, plain text, an image,
 * a large page) that the crawler fetches for real. websearch.ts builds the app
 * over them.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  url: string;
  port: number;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => unknown;

export async function startServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    requests.push({ path: url.pathname + url.search, headers: req.headers });
    Promise.resolve(handler(req, res, url)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export interface BraveHit {
  url: string;
  title: string;
  description: string;
  extra_snippets?: string[];
}

/** Behaviour of the fake providers, changed by tests between requests. */
export interface FakeProviderState {
  /** Web hits per query (query text as received, `site:` operators included); default `hits`. */
  byQuery: Record<string, BraveHit[]>;
  hits: BraveHit[];
  context: {
    grounding: { generic: { url: string; title: string; snippets: string[] }[] };
    sources: Record<string, unknown>;
  };
  /** 'ok' | HTTP status | 'invalid-json' | 'slow' (answers after `delayMs`). */
  behaviour: 'ok' | 'invalid-json' | 'slow' | number;
  delayMs: number;
  /** Queries answered with this HTTP status (the others answer normally). */
  failQueries: Record<string, number>;
  /** Results per SearXNG page (`pageno`); default all hits on page 1. */
  searxngPageSize?: number;
}

export function providerState(): FakeProviderState {
  return {
    byQuery: {},
    hits: [],
    context: { grounding: { generic: [] }, sources: {} },
    behaviour: 'ok',
    delayMs: 0,
    failQueries: {},
    searxngPageSize: undefined,
  };
}

async function misbehave(state: FakeProviderState, res: http.ServerResponse): Promise<boolean> {
  if (state.behaviour === 'slow') await sleep(state.delayMs);
  if (typeof state.behaviour === 'number') {
    json(res, state.behaviour, { error: 'upstream exploded' });
    return true;
  }
  if (state.behaviour === 'invalid-json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"web": {"results": [');
    return true;
  }
  return false;
}

/** Fake Brave: /res/v1/web/search and /res/v1/llm/context, token `test-brave-key` required. */
export function startFakeBrave(state: FakeProviderState): Promise<TestServer> {
  return startServer(async (req, res, url) => {
    if (req.headers['x-subscription-token'] !== 'test-brave-key') return json(res, 401, { error: 'bad token' });
    if (await misbehave(state, res)) return;
    const q = url.searchParams.get('q') ?? '';
    // As Brave: `q` of at most 400 characters and 50 words.
    if (q.length > 400 || q.trim().split(/\s+/).length > 50)
      return json(res, 422, { error: { code: 'VALIDATION', detail: 'q too long' } });
    if (state.failQueries[q]) return json(res, state.failQueries[q], { error: `failed ${q}` });
    if (url.pathname === '/res/v1/web/search') {
      const hits = state.byQuery[q] ?? state.hits;
      // As Brave: at most 20 results per call, `offset` counts pages of `count` results (at most 9).
      const count = Number(url.searchParams.get('count') ?? 20);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      if (count > 20 || offset > 9) return json(res, 422, { error: 'count must be <= 20 and offset <= 9' });
      const withExtra = url.searchParams.get('extra_snippets') === 'true';
      const page = hits.slice(offset * count, (offset + 1) * count);
      const results = page.map((h) => (withExtra ? h : { ...h, extra_snippets: undefined }));
      const more = hits.length > (offset + 1) * count;
      return json(res, 200, {
        type: 'search',
        query: { original: q, more_results_available: more },
        web: { type: 'search', results },
      });
    }
    if (url.pathname === '/res/v1/llm/context') return json(res, 200, state.context);
    json(res, 404, { error: 'not found' });
  });
}

/** Fake SearXNG: /search?format=json. */
export function startFakeSearxng(state: FakeProviderState): Promise<TestServer> {
  return startServer(async (_req, res, url) => {
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') return json(res, 403, 'Forbidden');
    if (await misbehave(state, res)) return;
    const q = url.searchParams.get('q') ?? '';
    if (state.failQueries[q]) return json(res, state.failQueries[q], { error: `failed ${q}` });
    const all = state.byQuery[q] ?? state.hits;
    // As SearXNG: one page of results per call, `pageno` from 1.
    const size = state.searxngPageSize ?? all.length;
    const pageno = Number(url.searchParams.get('pageno') ?? 1);
    const hits = all.slice((pageno - 1) * size, pageno * size);
    json(res, 200, {
      query: q,
      results: hits.map((h) => ({ url: h.url, title: h.title, content: h.description, engine: 'fake' })),
    });
  });
}

export const ARTICLE = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title>
<meta name="description" content="About ${title}"></head><body>
<header><a href="/">Home</a><a href="/about">About us</a></header>
<nav><ul><li><a href="/a">Navigation link</a></li></ul></nav>
<main><h1>${title}</h1><p>${body}</p><p>More words about ${title}, written to be long enough for a paragraph.</p></main>
<aside>Sidebar advertisement text</aside><footer>Footer copyright notice</footer></body></html>`;

/** A one-page PDF showing `text` (Helvetica, uncompressed content stream). */
export function tinyPdf(text: string): Uint8Array {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** The small web site the fake providers point at. */
export function startSite(): Promise<TestServer> {
  return startServer(async (_req, res, url) => {
    const p = url.pathname;
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (p.startsWith('/article/'))
      return html(ARTICLE(`Article ${p.slice(9)}`, `Full body text of article ${p.slice(9)} with crawled content.`));
    if (p === '/slow') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Number(url.searchParams.get('ms') ?? 3000));
        res.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (res.destroyed) return;
      return html(ARTICLE('Slow page', 'Slow body that arrives too late.'));
    }
    if (p === '/long') return html(ARTICLE('Long page', 'lorem ipsum dolor '.repeat(2000)));
    if (p === '/plain') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Plain text page body.');
    }
    if (p === '/doc.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(tinyPdf('Hello from the PDF document'));
    }
    if (p === '/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    }
    if (p === '/secret') return html('<p>internal secret page</p>');
    if (p === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/article/1' });
      return res.end();
    }
    if (p === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (p === '/missing') return html('gone', 404);
    html('<p>not found</p>', 404);
  });
}
