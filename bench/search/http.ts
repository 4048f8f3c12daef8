/**
 * Search over HTTP at scale: the real server (src/main.ts) in a child process
 * on a fresh data directory; the deterministic GCIDE scale set
 * (corpora/scale.ts) pushed through the Indexing API into its 8 datasources
 * (access tokens become allowed_groups; 10% of the documents are e-mails in
 * threads of 5); one person registered on every datasource and member of the
 * same 50 groups in each (25 directly, 25 through nested groups). Then
 * GET /api/beta/search with count=10 and the full result record:
 * sequential latency (p50, p99) and searches/s with 16 concurrent clients.
 *
 *   node --import tsx bench/search/http.ts [--docs 1000000] [--seconds 20] [--concurrency 16] [--keep DIR] [--push-only]
 *     [--server-prof DIR] [--no-settle] [--threads N]
 *
 * --threads N sets the server's SEARCH_THREADS (default: the server's own default, one per core up to 4).
 * All searches come from one person, so the server runs with SEARCH_ACCOUNT_CONCURRENCY=64 (every thread
 * for one account) unless the environment sets it: this measures the server's capacity, and
 * search/fairness.ts the sharing between accounts.
 *
 * With --keep DIR the data directory is kept (and reused when it already holds
 * the set: pushing is skipped); --push-only stops after pushing and committing;
 * --server-prof DIR writes a V8 CPU profile of the server into DIR.
 *
 * Searches start once the server reports its index settled (the engine's
 * `compacted` log line: idle compaction after MERGE_IDLE_MS without writes,
 * default 30 s, set with BENCH_MERGE_IDLE_MS); the server is then restarted at
 * LOG_LEVEL=warn for the measurement. --no-settle measures at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGcide } from '../corpora/gcide.ts';
import { DATASOURCES, generateScaleDocs, sentencePool, userTokenSets } from '../corpora/scale.ts';
import { summarizeLatencies } from '../lib/metrics.ts';
import { runLoad } from '../lib/load.ts';
import { createRng } from '../lib/prng.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : def;
};
const DOCS = Number(arg('docs', '1000000'));
const SECONDS = Number(arg('seconds', '20'));
const CONCURRENCY = Number(arg('concurrency', '16'));
const KEEP = arg('keep', '');
const PUSH_ONLY = process.argv.includes('--push-only');
/** Directory for a V8 CPU profile of the server process (written when it exits). */
const SERVER_PROF = arg('server-prof', '');
const SETTLE = !process.argv.includes('--no-settle');
/** SEARCH_THREADS of the server; '' = its default. */
const THREADS = arg('threads', '');
const MASTER = 'bench-master-key-0123456789abcdef';
const USER = 'bench.user@example.com';
const BATCH = 1000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * The server on `dataDir`. `logLevel` info shows the engine's compaction lines (watched here);
 * the measured server runs at warn, so per-request log lines cost nothing.
 */
function startServer(dataDir: string, port: number, logLevel: 'info' | 'warn'): ChildProcess {
  const prof = SERVER_PROF ? ['--cpu-prof', `--cpu-prof-dir=${SERVER_PROF}`] : [];
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=8192', ...prof, '--import', 'tsx', join(ROOT, 'src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ADMIN_KEY: MASTER,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        COMMIT_INTERVAL_MS: '2000',
        LOG_LEVEL: logLevel,
        ...(THREADS !== '' ? { SEARCH_THREADS: THREADS } : {}),
        // one person sends every search: lift the per-account limit so that they may use every thread
        SEARCH_ACCOUNT_CONCURRENCY: process.env.SEARCH_ACCOUNT_CONCURRENCY ?? '64',
        ...(process.env.BENCH_MERGE_IDLE_MS ? { MERGE_IDLE_MS: process.env.BENCH_MERGE_IDLE_MS } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // Warnings and errors go to the console; the engine's compaction lines are watched.
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let rec: { level?: string; msg?: string; segments?: number; merges?: number; ms?: number };
      try {
        rec = JSON.parse(line);
      } catch {
        if (line.trim()) console.log(line);
        continue;
      }
      if (rec.level === 'warn' || rec.level === 'error') console.log(line);
      if (rec.msg === 'search engine compacted') {
        settled = { segments: rec.segments ?? NaN, merges: rec.merges ?? 0, ms: rec.ms ?? 0 };
        for (const w of settleWaiters.splice(0)) w();
      }
    }
  });
  return child;
}

/** The server's last `compacted` report (its index is settled), and who waits for the next one. */
let settled: { segments: number; merges: number; ms: number } | null = null;
const settleWaiters: (() => void)[] = [];

async function waitSettled(timeoutMs: number): Promise<void> {
  const t0 = performance.now();
  if (!settled)
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server reported no compacted index in time')), timeoutMs);
      settleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  const s = settled!;
  console.log(
    `index settled after ${((performance.now() - t0) / 1000).toFixed(0)} s: ${s.segments} segment(s), ${s.merges} idle merge(s) taking ${(s.ms / 1000).toFixed(1)} s`,
  );
}

/** User + system CPU time of a process in ms (/proc/PID/stat, clock ticks of 10 ms). */
function serverCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const dataDir = KEEP || (await mkdtemp(join(tmpdir(), 'search-bench-')));
  const reuse = KEEP !== '' && existsSync(join(dataDir, 'bench-ready'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = startServer(dataDir, port, SETTLE ? 'info' : 'warn');
  process.on('exit', () => server.exitCode === null && server.kill('SIGKILL'));

  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const up = async () => {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) return;
      } catch {
        // not up yet
      }
      if (i > 600) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await up();

  console.log(`loading GCIDE and generating ${DOCS.toLocaleString()} documents (seed 42)...`);
  const sentences = sentencePool(loadGcide().docs);
  const groups = userTokenSets(1)[0];

  let svc: string;
  if (!reuse) {
    svc = (await call('POST', '/api/admin/service-accounts', MASTER, { name: 'bench' })).key;
    await call('POST', '/api/admin/accounts', MASTER, { email: USER });
    for (const ds of DATASOURCES) {
      await call('POST', '/api/indexing/datasources', svc, { name: ds, display_name: ds });
      await call('POST', '/api/indexing/users', svc, { datasource: ds, user: { email: USER } });
      for (const g of groups) await call('POST', '/api/indexing/groups', svc, { datasource: ds, group: { name: g } });
      // 25 direct memberships; each of the other 25 groups contains one of the direct ones.
      for (let i = 0; i < 25; i++) {
        await call('POST', '/api/indexing/memberships', svc, {
          datasource: ds,
          membership: { group_name: groups[i], member_email: USER },
        });
        await call('POST', '/api/indexing/memberships', svc, {
          datasource: ds,
          membership: { group_name: groups[25 + i], member_group_name: groups[i] },
        });
      }
    }
    settled = null; // a report from before the push does not count
    const t0 = performance.now();
    let batch: Record<string, unknown>[] = [];
    let pushed = 0;
    let skipped = 0;
    const inflight = new Set<Promise<void>>();
    const send = async (docs: Record<string, unknown>[]) => {
      const r = await call('POST', '/api/indexing/documents', svc, { documents: docs });
      // 'skipped': the pipeline refuses a computed suffix over 10 characters (a title ending in '.something').
      const bad = r.results.filter((x: { outcome: string }) => x.outcome === 'failed');
      if (bad.length > 0) throw new Error(`push failed: ${JSON.stringify(bad.slice(0, 3))}`);
      skipped += r.results.filter((x: { outcome: string }) => x.outcome === 'skipped').length;
      pushed += docs.length;
    };
    let i = 0;
    for (const d of generateScaleDocs(sentences, DOCS)) {
      const mail = i % 10 === 0;
      const thread = Math.floor(i / 50);
      batch.push({
        datasource: d.keywords!.datasource[0],
        id: d.id,
        title: d.title,
        file_type: mail ? 'email' : i % 3 === 0 ? 'file' : 'wiki',
        path: mail ? `Inbox > Thread ${thread} > ${d.id}` : `Space ${i % 100} > ${d.title.slice(0, 40)}`,
        path_preview: `https://example.org/${d.id}`,
        author: `Author ${i % 500}`,
        last_modified: new Date(Date.UTC(2020, 0, 1) + (i % 2000) * 86_400_000).toISOString(),
        body: { mime_type: 'text/plain', text_content: d.body },
        permissions: { allowed_groups: d.keywords!.acl },
      });
      i++;
      if (batch.length === BATCH) {
        const p = send(batch).finally(() => inflight.delete(p));
        inflight.add(p);
        batch = [];
        if (inflight.size >= 2) await Promise.race(inflight);
        if (i % 50_000 === 0)
          console.log(`  pushed ${i.toLocaleString()} (${Math.round(i / ((performance.now() - t0) / 1000))} docs/s)`);
      }
    }
    if (batch.length > 0) await send(batch);
    await Promise.all(inflight);
    const marker = {
      datasource: DATASOURCES[0],
      id: 'bench-marker',
      title: 'marker',
      file_type: 'wiki',
      body: { mime_type: 'text/plain', text_content: 'marker' },
      permissions: { allowed_groups: ['nobody'] },
    };
    await call('POST', '/api/indexing/documents', svc, { documents: marker });
    for (;;) {
      const st = await call('GET', `/api/indexing/documents/${DATASOURCES[0]}/bench-marker`, svc);
      if (st.committed_at) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `pushed and committed ${pushed.toLocaleString()} documents (${skipped} skipped by the suffix rule) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    if (KEEP) await import('node:fs/promises').then((fs) => fs.writeFile(join(dataDir, 'bench-ready'), String(DOCS)));
  }
  if (PUSH_ONLY) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    return;
  }
  if (SETTLE) {
    await waitSettled(30 * 60_000);
    // measured at LOG_LEVEL=warn, on the compacted index
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    server = startServer(dataDir, port, 'warn');
    await up();
  }
  const key = (await call('POST', `/api/admin/accounts/${encodeURIComponent(USER)}/keys`, MASTER, {})).key as string;

  // Queries: 1-2 words of random GCIDE sentences (deterministic).
  const rng = createRng(99);
  const words = (s: string) => s.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  // Distinct queries, none repeated during the run (the related-lists cache only helps when
  // different queries return the same documents).
  const distinct = new Set<string>();
  while (distinct.size < 40_000) {
    const w = words(rng.pick(sentences));
    if (w.length === 0) continue;
    distinct.add(rng.next() < 0.5 ? rng.pick(w) : `${rng.pick(w)} ${rng.pick(w)}`);
  }
  const queries = [...distinct];
  let qi = 0;
  let resultsSeen = 0;
  const one = async (): Promise<number> => {
    const q = queries[qi++ % queries.length];
    const t = performance.now();
    const res = await fetch(`${base}/api/beta/search?query=${encodeURIComponent(q)}&count=10`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { results: unknown[] };
    if (res.status !== 200) throw new Error(`search ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    resultsSeen += body.results.length;
    return performance.now() - t;
  };

  for (let w = 0; w < 300; w++) await one();
  const seq: number[] = [];
  const cpu0 = serverCpuMs(server.pid);
  for (let n = 0; n < 1000; n++) seq.push(await one());
  const seqCpu = (serverCpuMs(server.pid) - cpu0) / 1000;
  const sequential = summarizeLatencies(seq);
  const avgResults = resultsSeen / (300 + 1000);

  // Concurrent phase: autocannon (bench/lib/load.ts); fetch's client cost about 1.5 ms CPU per
  // request on this machine, taken from the same two cores as the server.
  const cpu1 = serverCpuMs(server.pid);
  const gen0 = process.cpuUsage();
  const load = await runLoad({
    base,
    connections: CONCURRENCY,
    seconds: SECONDS,
    headers: { authorization: `Bearer ${key}` },
    nextPath: () => `/api/beta/search?query=${encodeURIComponent(queries[qi++ % queries.length])}&count=10`,
  });
  if (load.failures > 0) throw new Error(`${load.failures} of ${load.requests} concurrent searches failed`);
  const concCpu = (serverCpuMs(server.pid) - cpu1) / load.requests;
  const gen = process.cpuUsage(gen0);
  const genCpu = (gen.user + gen.system) / 1000 / load.requests;
  const rss = server.pid ? rssMB(server.pid) : NaN;
  const f = (x: number) => x.toFixed(1);
  console.log('\n| Scenario | Documents | p50 ms | p99 ms | searches/s | server CPU ms/search |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| sequential, count=10, full record | ${DOCS.toLocaleString()} | ${f(sequential.p50Ms)} | ${f(sequential.p99Ms)} | ${f(sequential.qps)} | ${f(seqCpu)} |`,
  );
  console.log(
    `| ${CONCURRENCY} concurrent clients (autocannon), ${SECONDS} s | ${DOCS.toLocaleString()} | ${load.p50Ms} | ${load.p99Ms} | ${f(load.perSecond)} | ${f(concCpu)} |`,
  );
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(
        ' ',
      )} (server CPU: user + system time of the server process per search; load generator ${f(genCpu)} ms CPU per search)`,
  );
  console.log(`search threads: ${THREADS === '' ? 'server default' : THREADS}`);
  console.log(
    `\nuser: 50 groups in each of ${DATASOURCES.length} datasources (25 direct, 25 nested); mean results per search ${avgResults.toFixed(1)}; server RSS ${f(rss)} MB`,
  );
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (!KEEP) await rm(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
