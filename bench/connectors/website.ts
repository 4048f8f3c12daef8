/**
 * Website connector throughput, end to end: BENCH_PAGES pages (default 1,000, about 3 KB of
 * HTML each, every page linking to five others, all listed in a sitemap) served by a local HTTP
 * server in this process, crawled by the real server: fetch, main-content extraction in the
 * worker pool, push, indexing, commit. Then a second run, in which every page answers 304 to
 * the conditional request. Target: at least 20 pages/s.
 *
 *   node --import tsx bench/connectors/website.ts        (from the repository root)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { machineLine } from '../lib/machine.ts';
import { runSeconds, startServer } from './server.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const WORDS = 'intranet policy handbook travel leave expense holiday benefits security onboarding team office'.split(
  ' ',
);

function page(i: number): string {
  const text = Array.from({ length: 300 }, (_, k) => WORDS[(i * 5 + k * 11) % WORDS.length]).join(' ');
  const links = Array.from({ length: 5 }, (_, k) => `<a href="/page/${(i * 31 + k * 97) % PAGES}">related ${k}</a>`);
  return `<!doctype html><html><head><title>Page ${i}</title></head><body><nav><a href="/">Home</a> menu</nav><main><h1>Page ${i}</h1><p>${text}</p><p>${links.join(' ')}</p></main><footer>footer</footer></body></html>`;
}

async function main() {
  const site = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/sitemap.xml') {
      const urls = Array.from({ length: PAGES }, (_, i) => `<url><loc>${base}/page/${i}</loc></url>`).join('');
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset>${urls}</urlset>`);
      return;
    }
    const m = /^\/page\/(\d+)$/.exec(path);
    if (!m || Number(m[1]) >= PAGES) return void res.writeHead(404).end();
    const etag = `"p${m[1]}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(page(Number(m[1])));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const server = await startServer();
  try {
    const c = await server.admin('POST', '/connectors', {
      name: 'Bench site',
      type: 'intranet_online',
      datasource: 'bench_site',
      interval_minutes: null,
      settings: {
        start_urls: [`${base}/page/0`],
        sitemaps: [`${base}/sitemap.xml`],
        intranet_hosts: ['127.0.0.1'],
        requests_per_second: 1000,
        concurrency: 8,
        max_pages: PAGES * 2,
      },
    });
    const first = await server.run(c.id);
    const second = await server.run(c.id);
    const t1 = runSeconds(first);
    const t2 = runSeconds(second);
    console.log(`| Run | Pages | Seconds | Pages/s |`);
    console.log(`|---|--:|--:|--:|`);
    console.log(`| first (all new) | ${first.counts.sent} sent | ${t1.toFixed(2)} | ${Math.round(PAGES / t1)} |`);
    console.log(
      `| second (304 Not Modified) | ${second.counts.unchanged} unchanged | ${t2.toFixed(2)} | ${Math.round(PAGES / t2)} |`,
    );
    console.log(machineLine());
    if (first.counts.sent !== PAGES) throw new Error(`unexpected counts ${JSON.stringify(first)}`);
  } finally {
    await server.close();
    site.closeAllConnections();
    site.close();
  }
}

await main();
