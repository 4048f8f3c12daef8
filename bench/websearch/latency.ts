/**
 * Web search latency and memory benchmark (issue target: with pages served
 * locally with a 200 ms delay, a `search` request for 10 results completes in
 * under 400 ms because pages are crawled in parallel, and the server's memory
 * stays flat over 1,000 requests).
 *
 * Runs a fake Brave API and 10 result pages (each answered after 200 ms) in
 * this process, the real server (server.ts) in a child process, then:
 * 1. latency: LATENCY_RUNS sequential `search` requests for 10 results;
 * 2. memory: REQUESTS requests (CONCURRENCY in flight), server RSS and heap
 *    after a forced GC before, half-way and after.
 * Usage: node --import tsx bench/websearch/latency.ts   (env: REQUESTS, CONCURRENCY, LATENCY_RUNS,
 * BENCH_CHILD_ARGS e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for the server process)
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const LATENCY_RUNS = Number(process.env.LATENCY_RUNS ?? 50);
const PAGE_DELAY_MS = 200;
const RESULTS = 10;

function listen(handler: http.RequestListener): Promise<{ url: string; close(): void }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}

const para = (i: number, n: number) =>
  `<p>Paragraph ${n} of page ${i}: ${'lorem ipsum dolor sit amet, consectetur adipiscing elit '.repeat(8)}</p>`;
const pageHtml = (i: number) => `<!doctype html><html><head><title>Page ${i}</title></head><body>
<nav>${Array.from({ length: 30 }, (_, n) => `<a href="/n${n}">Nav ${n}</a>`).join(' ')}</nav>
<main><h1>Page ${i}</h1>${Array.from({ length: 20 }, (_, n) => para(i, n)).join('\n')}</main><footer>Footer</footer></body></html>`;

const pages = await listen((req, res) => {
  const i = Number(/\/page\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(i));
  }, PAGE_DELAY_MS);
});
const brave = await listen((req, res) => {
  const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
  const results = Array.from({ length: RESULTS }, (_, i) => ({
    url: `${pages.url}/page/${i}?q=${encodeURIComponent(q ?? '')}`,
    title: `Result ${i}`,
    description: `Snippet ${i}`,
  }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ web: { results } }));
});

const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
  execArgv: ['--expose-gc', '--import', 'tsx', ...(process.env.BENCH_CHILD_ARGS ?? '').split(' ').filter(Boolean)],
  env: {
    ...process.env,
    BRAVE_API_KEY: 'bench-key',
    BRAVE_BASE_URL: brave.url,
    CRAWLER_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
  },
});
const waitFor = <T>(type: string) =>
  new Promise<T>((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m as T);
      }
    };
    child.on('message', on);
  });
const { port, key } = await waitFor<{ port: number; key: string }>('ready');
type Mem = { rss: number; heapUsed: number; external: number; gc: boolean };
const mem = () => {
  const p = waitFor<Mem>('mem');
  child.send({ type: 'mem' });
  return p;
};

let seq = 0;
async function one(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/beta/web_search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ queries: [`query ${seq++}`], count: RESULTS, mode: 'search' }),
  });
  const body = (await res.json()) as { content: string }[];
  const ms = performance.now() - started;
  if (res.status !== 200 || body.length !== RESULTS || !body.every((r) => r.content.includes('Paragraph 0 of page'))) {
    throw new Error(`unexpected answer ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return ms;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

for (let i = 0; i < 10; i++) await one(); // warm-up (JIT, connection pools)
const lat: number[] = [];
for (let i = 0; i < LATENCY_RUNS; i++) lat.push(await one());
console.log(
  `latency of a search request for ${RESULTS} results, pages delayed ${PAGE_DELAY_MS} ms, ${LATENCY_RUNS} sequential runs:`,
);
console.log(
  `  min ${pct(lat, 0).toFixed(0)} ms, p50 ${pct(lat, 50).toFixed(0)} ms, p95 ${pct(lat, 95).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms` +
    ` -> target p95 < 400 ms: ${pct(lat, 95) < 400 ? 'MET' : 'MISSED'}`,
);

const before = await mem();
const samples: Mem[] = [];
let done = 0;
const t0 = performance.now();
const all: number[] = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (done < REQUESTS) {
      const n = ++done;
      all.push(await one());
      if (n === REQUESTS / 2) samples.push(await mem());
    }
  }),
);
const after = await mem();
const secs = (performance.now() - t0) / 1000;
console.log(
  `memory over ${REQUESTS} requests (${CONCURRENCY} in flight, ${secs.toFixed(1)} s, p50 ${pct(all, 50).toFixed(0)} ms, p95 ${pct(all, 95).toFixed(0)} ms), server after forced GC${before.gc ? '' : ' (gc unavailable!)'}:`,
);
console.log(`  before: rss ${mb(before.rss)}, heap ${mb(before.heapUsed)}, external ${mb(before.external)}`);
for (const s of samples)
  console.log(`  half-way: rss ${mb(s.rss)}, heap ${mb(s.heapUsed)}, external ${mb(s.external)}`);
console.log(`  after:  rss ${mb(after.rss)}, heap ${mb(after.heapUsed)}, external ${mb(after.external)}`);
console.log(`  heap delta ${mb(after.heapUsed - before.heapUsed)}, rss delta ${mb(after.rss - before.rss)}`);

child.send({ type: 'exit' });
await new Promise((resolve) => child.once('exit', resolve));
pages.close();
brave.close();
process.exit(0);
