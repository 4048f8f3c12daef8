/**
 * Documents scenario: bulk push over HTTP of ~1 KB `text_content` documents into
 * the real server (child process, on-disk DATA_DIR), measuring end-to-end
 * throughput (first request to last document committed) and the time from a
 * `sent` response to searchable (the server's committed_at of sampled documents
 * minus the wall-clock time their bulk's response arrived; also from the server's
 * received_at, which precedes validation and the queue fsync), while a search loop
 * keeps querying the index.
 *
 *   node --import tsx bench/documents/push.ts            (from the repo root)
 *   BENCH_DOCS=100000 BENCH_BULK=500 BENCH_CONCURRENCY=4 node --import tsx bench/documents/push.ts
 *
 * Searches run at a fixed rate, BENCH_SEARCH_RATE per second (default 10; one client, a search
 * starts every 1/rate s or when the previous one answers, whichever is later), so the push's
 * figures do not depend on how fast searches are (a back-to-back loop, BENCH_SEARCH_RATE=0, fires
 * more searches the faster they get). BENCH_SEARCH=0 turns the search loop off; BENCH_SERVER_ARGS passes node flags to the server
 * (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); BENCH_COMMIT_INTERVAL_MS sets COMMIT_INTERVAL_MS.
 * BENCH_LAG_DETAIL=1 prints the worst sent -> searchable lag per tenth of the documents.
 * BENCH_SERVER_LOG=<file> writes the server's log (LOG_LEVEL=debug: engine flushes and commits
 * with their durations) to that file.
 * The server's CPU time (user + system, from /proc on Linux) over the measured span is reported
 * per document: on a shared machine it is steadier than wall-clock throughput.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../lib/prng.ts';
import { summarizeLatencies } from '../lib/metrics.ts';
import { machineLine } from '../lib/machine.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = Number(process.env.BENCH_DOCS ?? 50_000);
const BULK = Number(process.env.BENCH_BULK ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const COMMIT_INTERVAL_MS = Number(process.env.BENCH_COMMIT_INTERVAL_MS ?? 1000);
const MASTER = 'bench-master-key-0123456789abcdef';
const SERVER_LOG = process.env.BENCH_SERVER_LOG;

const WORDS = (
  'travel policy expense report quarterly budget contract customer invoice project meeting agenda review ' +
  'security incident database backup network server deployment release roadmap hiring onboarding training ' +
  'vacation request approval manager department finance legal compliance audit risk strategy product design ' +
  'Urlaubsantrag Rechnung Vertrag Kunde Projekt Bericht Abteilung Reisekosten Sicherheit Datenschutz'
).split(' ');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function text(rng: ReturnType<typeof createRng>, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(rng.next() * WORDS.length)];
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

/**
 * CPU time (user + system) of a process in ms, from /proc/<pid>/stat; NaN where unavailable.
 * With `mainThread`, of its main thread only (/proc/<pid>/task/<pid>/stat): the thread that
 * parses requests, so the one that bounds throughput.
 */
async function processCpuMs(pid: number | undefined, mainThread = false): Promise<number> {
  try {
    const stat = await readFile(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-push-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serverArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...serverArgs, '--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_KEY: MASTER,
      LOG_LEVEL: SERVER_LOG ? 'debug' : 'warn',
      COMMIT_INTERVAL_MS: String(COMMIT_INTERVAL_MS),
    },
    stdio: ['ignore', SERVER_LOG ? 'pipe' : 'ignore', 'inherit'],
  });
  if (SERVER_LOG) server.stdout!.pipe(createWriteStream(SERVER_LOG));
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {}
      if (i > 200) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const call = async (method: string, path: string, key: string, body?: unknown) => {
      const res = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const sa = await call('POST', '/api/admin/service-accounts', MASTER, { name: 'bench' });
    await call('POST', '/api/indexing/datasources', sa.key, { name: 'bench', display_name: 'Bench' });
    await call('POST', '/api/admin/accounts', MASTER, { email: 'reader@example.com' });
    const pk = await call('POST', '/api/admin/accounts/reader@example.com/keys', MASTER, {});
    await call('POST', '/api/indexing/users', sa.key, { datasource: 'bench', user: { email: 'reader@example.com' } });
    const searchPath = '/api/beta/search?count=10&query=';
    const hasSearch =
      process.env.BENCH_SEARCH !== '0' &&
      (await fetch(`${base}${searchPath}policy`, { headers: { authorization: `Bearer ${pk.key}` } })).status !== 404;

    const rng = createRng(42);
    const batches: unknown[][] = [];
    for (let i = 0; i < DOCS; i += BULK) {
      const batch = [];
      for (let j = i; j < Math.min(DOCS, i + BULK); j++) {
        batch.push({
          datasource: 'bench',
          id: `doc-${j}`,
          title: text(rng, 40),
          file_type: 'content',
          last_modified: '2026-01-01T00:00:00.000Z',
          body: { mime_type: 'text/plain', text_content: text(rng, 1000) },
        });
      }
      batches.push(batch);
    }
    const bytes = batches.reduce((n, b) => n + JSON.stringify({ documents: b }).length, 0);

    // Searches keep running while we push.
    let pushing = true;
    const searchMs: number[] = [];
    let searchErrors = 0;
    const searchLoop = (async () => {
      if (!hasSearch) return;
      const q = ['travel policy', 'budget review', 'Urlaubsantrag', 'security incident', 'customer invoice'];
      const rate = Number(process.env.BENCH_SEARCH_RATE ?? 10);
      const gapMs = rate > 0 ? 1000 / rate : 0;
      let due = performance.now();
      for (let i = 0; pushing; i++) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        due = Math.max(due + gapMs, performance.now());
        if (!pushing) break;
        const t0 = performance.now();
        const res = await fetch(`${base}${searchPath}${encodeURIComponent(q[i % q.length])}`, {
          headers: { authorization: `Bearer ${pk.key}` },
        });
        await res.arrayBuffer();
        if (res.ok) searchMs.push(performance.now() - t0);
        else searchErrors++;
      }
    })();

    const cpu0 = await processCpuMs(server.pid);
    const mainCpu0 = await processCpuMs(server.pid, true);
    const t0 = performance.now();
    const pushMs: number[] = [];
    let next = 0;
    /** Wall-clock time (Date.now, as the server's timestamps) each batch's `sent` response arrived. */
    const ackedAtMs: number[] = new Array(batches.length);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batches.length) {
          const bi = next++;
          const b = batches[bi];
          const s = performance.now();
          const r = await call('POST', '/api/indexing/documents', sa.key, { documents: b });
          ackedAtMs[bi] = Date.now();
          if (r.results.some((x: { outcome: string }) => x.outcome !== 'sent')) throw new Error('unexpected outcome');
          pushMs.push(performance.now() - s);
        }
      }),
    );
    const ackedAt = performance.now();
    // Wait until the last document is committed.
    for (;;) {
      const st = await call('GET', `/api/indexing/documents/bench/doc-${DOCS - 1}`, sa.key);
      if (st.state === 'indexed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const committedAt = performance.now();
    const serverCpuMs = (await processCpuMs(server.pid)) - cpu0;
    const mainCpuMs = (await processCpuMs(server.pid, true)) - mainCpu0;
    pushing = false;
    await searchLoop;

    const lags: number[] = [];
    const ackLags: number[] = [];
    const sample = Math.max(1, Math.floor(DOCS / 2000));
    for (let j = 0; j < DOCS; j += sample) {
      const st = await call('GET', `/api/indexing/documents/bench/doc-${j}`, sa.key);
      lags.push(Date.parse(st.committed_at) - Date.parse(st.received_at));
      ackLags.push(Math.max(0, Date.parse(st.committed_at) - ackedAtMs[Math.floor(j / BULK)]));
    }
    const lag = summarizeLatencies(lags);
    const ackLag = summarizeLatencies(ackLags);
    if (process.env.BENCH_LAG_DETAIL) {
      // Where the tail comes from: the worst lag per tenth of the documents (in push order).
      const tenth = Math.ceil(lags.length / 10);
      const worst = Array.from({ length: 10 }, (_, k) => Math.max(...lags.slice(k * tenth, (k + 1) * tenth), 0));
      console.log(`sent -> searchable, worst per tenth of the docs (ms): ${worst.map((x) => x.toFixed(0)).join(' ')}`);
    }
    const push = summarizeLatencies(pushMs);
    const seconds = (committedAt - t0) / 1000;
    console.log(
      `\n## Documents: bulk push over HTTP (${DOCS.toLocaleString('en-US')} docs of ~1 KB, bulks of ${BULK}, ${CONCURRENCY} concurrent, COMMIT_INTERVAL_MS=${COMMIT_INTERVAL_MS})\n`,
    );
    console.log(machineLine());
    console.log('\n| figure | value | target |');
    console.log('|---|---|---|');
    console.log(
      `| end-to-end docs/s (first request to last doc committed) | ${(DOCS / seconds).toFixed(0)} | >= 5,000 |`,
    );
    console.log(`| acknowledged docs/s (all pushes answered) | ${(DOCS / ((ackedAt - t0) / 1000)).toFixed(0)} | |`);
    console.log(`| request MB/s | ${(bytes / 2 ** 20 / ((ackedAt - t0) / 1000)).toFixed(1)} | |`);
    console.log(`| bulk request latency p50 / p99 ms | ${push.p50Ms.toFixed(0)} / ${push.p99Ms.toFixed(0)} | |`);
    console.log(
      `| \`sent\` response -> searchable p50 / p99 / max ms | ${ackLag.p50Ms.toFixed(0)} / ${ackLag.p99Ms.toFixed(0)} / ${ackLag.maxMs.toFixed(0)} | p99 <= ${COMMIT_INTERVAL_MS + 500} |`,
    );
    console.log(
      `| received (server's received_at) -> searchable p50 / p99 / max ms | ${lag.p50Ms.toFixed(0)} / ${lag.p99Ms.toFixed(0)} / ${lag.maxMs.toFixed(0)} | |`,
    );
    console.log(
      `| server CPU time per document (push to commit, incl. searches) | ${((serverCpuMs * 1000) / DOCS).toFixed(0)} µs (${(serverCpuMs / 1000 / seconds).toFixed(2)} cores busy) | |`,
    );
    console.log(
      `| server main-thread CPU time per document | ${((mainCpuMs * 1000) / DOCS).toFixed(0)} µs (${((100 * mainCpuMs) / 1000 / seconds).toFixed(0)}% of the span) | |`,
    );
    if (hasSearch) {
      const s = summarizeLatencies(searchMs.length ? searchMs : [0]);
      console.log(
        `| searches during the push (${process.env.BENCH_SEARCH_RATE ?? 10}/s): count / p50 / p99 ms / errors | ${searchMs.length} / ${s.p50Ms.toFixed(1)} / ${s.p99Ms.toFixed(1)} / ${searchErrors} | keep answering |`,
      );
    } else {
      console.log('| searches during the push | search API not available | |');
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
