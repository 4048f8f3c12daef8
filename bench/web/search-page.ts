/**
 * The search page's speed (issue 22, point 7), in Chromium (Debian's, driven
 * by playwright-core) against the real server on the HTTP search benchmark's
 * set (bench/web/server.ts; 1M documents by default, built on first use):
 *
 * 1. First load, cold cache: bytes transferred (compressed bodies plus
 *    response headers) for the page's HTML, CSS, JS and icon, for `/` and a
 *    results page. Target: under 100 KB.
 * 2. From pressing Enter in the query box to the first result painted: the
 *    keydown time (recorded in the page) to the Element Timing entry of the
 *    first result's title (`elementtiming="first-result"`) on the results
 *    page, both on the epoch clock (timeOrigin + high-resolution time); also
 *    Enter to first contentful paint, the server's part (request start to
 *    response start), and the floor: the same steps on a one-line page from a
 *    bare server (floor.ts), interleaved query by query. Assets cached, as for
 *    a person searching again.
 *    Queries: 1-2 GCIDE words, deterministic (seed 11), none repeated; the
 *    first `--warmup` are not counted, nor queries without results (no
 *    result to paint); runs until `--queries` are counted. Target: p50 under
 *    150 ms.
 *
 *   node --import tsx bench/web/search-page.ts [--data DIR] [--docs 1000000] [--queries 60] [--warmup 10] [--no-settle]
 *
 * --data DIR keeps the set (default: a folder in the OS temp dir named after --docs, reused on
 * the next run). The server first runs until the engine reports its index compacted (idle
 * compaction), then is restarted at LOG_LEVEL=warn for the measurement; --no-settle skips that.
 */
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { loadGcide } from '../corpora/gcide.ts';
import { sentencePool } from '../corpora/scale.ts';
import { machineLine } from '../lib/machine.ts';
import { createRng } from '../lib/prng.ts';
import { startFloorServer } from './floor.ts';
import { ensureData, PASSWORD, setPassword, startServer, USER } from './server.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : def;
};
const DOCS = Number(arg('docs', '1000000'));
const DATA = arg('data', join(tmpdir(), `web-search-bench-${DOCS}`));
const QUERIES = Number(arg('queries', '60'));
const WARMUP = Number(arg('warmup', '10'));
const SETTLE = !process.argv.includes('--no-settle');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];

/** Distinct 1-2 word queries from GCIDE sentences. */
function sampleQueries(n: number): string[] {
  const sentences = sentencePool(loadGcide().docs);
  const rng = createRng(11);
  const words = (s: string) => s.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  const out = new Set<string>();
  while (out.size < n) {
    const w = words(rng.pick(sentences));
    if (w.length > 0) out.add(rng.next() < 0.5 ? rng.pick(w) : `${rng.pick(w)} ${rng.pick(w)}`);
  }
  return [...out];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

interface Transfer {
  kind: string;
  url: string;
  body: number;
  headers: number;
  encoding: string;
}

/** Everything a cold load of `url` transfers (browser cache disabled). */
async function firstLoad(page: Page, url: string): Promise<Transfer[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const done: Promise<Transfer>[] = [];
  const listener = (req: import('playwright-core').Request) =>
    done.push(
      (async () => {
        const [sizes, res] = await Promise.all([req.sizes(), req.response()]);
        const encoding = (await res?.headerValue('content-encoding')) ?? 'identity';
        return {
          kind: req.resourceType(),
          url: req.url(),
          body: sizes.responseBodySize,
          headers: sizes.responseHeadersSize,
          encoding,
        };
      })(),
    );
  page.on('requestfinished', listener);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(300); // late icon request
  page.off('requestfinished', listener);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.detach();
  return Promise.all(done);
}

interface Timing {
  enterToResult: number;
  enterToFcp: number;
  enterToRequest: number;
  server: number;
  responseToResult: number;
  results: number;
}

/**
 * Page scripts, as source text (a function would be serialised with the helpers the TypeScript
 * loader adds to it). RECORD_ENTER keeps the epoch time of the next Enter keydown in
 * sessionStorage (it survives the navigation); READ_TIMINGS answers it with the results page's
 * first-result render time (Element Timing), first contentful paint and navigation timing.
 */
const RECORD_ENTER = `addEventListener('keydown', (e) => {
  if (e.key === 'Enter') sessionStorage.setItem('bench.enter', String(performance.timeOrigin + performance.now()));
}, { capture: true, once: true })`;
const READ_TIMINGS = `new Promise((resolve) => {
  const nav = performance.getEntriesByType('navigation')[0];
  const done = (paint) => resolve({
    enter: Number(sessionStorage.getItem('bench.enter')),
    origin: performance.timeOrigin,
    paint,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    server: nav.responseStart - nav.requestStart,
    requestStart: nav.requestStart,
    responseEnd: nav.responseEnd,
    results: document.querySelectorAll('.result').length,
  });
  if (!document.querySelector('[elementtiming="first-result"]')) return done(NaN);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === 'first-result') done(e.renderTime || e.startTime);
  }).observe({ type: 'element', buffered: true });
  setTimeout(() => done(NaN), 5000);
})`;

/** Types `q`, presses Enter, and reads the results page's paint timings. */
async function searchOnce(page: Page, q: string): Promise<Timing> {
  await page.bringToFront(); // a background tab is throttled
  await page.fill('#q', q);
  await page.evaluate(RECORD_ENTER);
  await Promise.all([page.waitForURL((u) => u.searchParams.get('q') === q), page.press('#q', 'Enter')]);
  const m = (await page.evaluate(READ_TIMINGS)) as {
    enter: number;
    origin: number;
    paint: number;
    fcp: number;
    server: number;
    requestStart: number;
    responseEnd: number;
    results: number;
  };
  return {
    enterToResult: m.origin + m.paint - m.enter,
    enterToFcp: m.origin + m.fcp - m.enter,
    enterToRequest: m.origin + m.requestStart - m.enter,
    server: m.server,
    responseToResult: m.paint - m.responseEnd,
    results: m.results,
  };
}

async function main(): Promise<void> {
  await ensureData(DATA, DOCS);
  let server = await startServer(DATA, { settle: SETTLE });
  if (SETTLE) {
    await server.stop();
    server = await startServer(DATA, { settle: false });
  }
  await setPassword(server.base);
  // Enough queries for QUERIES with results when some find nothing.
  const queries = sampleQueries(1 + WARMUP + 3 * QUERIES);
  const floor = await startFloorServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.base}/signin`);
    await page.fill('#email', USER);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.click('button[type=submit].primary')]);

    console.log('\nFirst load, cold cache (bytes transferred: compressed body + response headers)\n');
    console.log('| page | HTML | CSS | JS | other | total | encoding |');
    console.log('|---|---|---|---|---|---|---|');
    for (const path of ['/', `/?q=${encodeURIComponent(queries[0])}`]) {
      const t = await firstLoad(page, server.base + path);
      const sum = (kinds: string[] | null) =>
        t
          .filter((x) => (kinds ? kinds.includes(x.kind) : !['document', 'stylesheet', 'script'].includes(x.kind)))
          .reduce((a, x) => a + x.body + x.headers, 0);
      const total = t.reduce((a, x) => a + x.body + x.headers, 0);
      const enc = [...new Set(t.filter((x) => x.kind !== 'image').map((x) => x.encoding))].join(', ');
      console.log(
        `| \`${path}\` (${await page.locator('.result').count()} results) | ${sum(['document'])} | ${sum(['stylesheet'])} | ${sum(['script'])} | ${sum(null)} | **${total}** (${(total / 1024).toFixed(1)} KiB) | ${enc} |`,
      );
    }

    await page.goto(`${server.base}/`);
    const floorPage = await context.newPage();
    await floorPage.goto(`${floor.base}/`);
    const timings: Timing[] = [];
    const floors: Timing[] = [];
    let empty = 0;
    let warm = 0;
    for (const q of queries.slice(1)) {
      if (timings.length === QUERIES) break;
      const t = await searchOnce(page, q);
      const f = await searchOnce(floorPage, q);
      if (warm++ < WARMUP) continue;
      if (t.results === 0 || !Number.isFinite(t.enterToResult)) empty++;
      else {
        timings.push(t);
        floors.push(f);
      }
    }
    const row = (name: string, xs: number[]) =>
      console.log(
        `| ${name} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 95).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`,
      );
    console.log(
      `\nEnter to first result painted, ${timings.length} queries with results (${empty} without, not counted; ${WARMUP} warm-up), ${DOCS.toLocaleString()} documents\n`,
    );
    console.log('| ms | p50 | p95 | max |');
    console.log('|---|---|---|---|');
    row(
      'Enter → first result painted (Element Timing)',
      timings.map((t) => t.enterToResult),
    );
    row(
      'Enter → first contentful paint',
      timings.map((t) => t.enterToFcp),
    );
    row(
      'of which: Enter → request start (the old page unloads, the navigation starts)',
      timings.map((t) => t.enterToRequest),
    );
    row(
      'of which: server (request start → response start)',
      timings.map((t) => t.server),
    );
    row(
      'of which: response end → first result painted',
      timings.map((t) => t.responseToResult),
    );
    row(
      'floor: a one-line page from a bare node:http server, interleaved (bench/web/floor.ts)',
      floors.map((t) => t.enterToResult),
    );
    console.log(`\n${machineLine()}`);
    console.log(
      `load average at the end: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser.close();
    await server.stop();
    await floor.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
