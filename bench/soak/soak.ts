/**
 * Soak: mixed load against the real server for a given time, watching its memory.
 * Every 1/rate s one request starts (at most 16 in flight): pushes that re-send
 * documents from a pool of 1,000 ids (5 per bulk, each with a new last_modified,
 * so they are indexed again), searches, chat completions with the embedded
 * extractive model (one serviceSearch round), and check-access. Per minute it
 * prints the requests, errors, search p50/p99 and the server's RSS; at the end
 * the RSS growth after the warm-up (median of the last 3 minutes against the
 * median of the 3 minutes after warm-up), and the slope over that span.
 *
 *   node --import tsx bench/soak/soak.ts --minutes 60 [--rate 1270] [--warmup 5] [--data DIR]
 *     [--base-docs 13000] [--snapshots DIR --snapshot-at 5,30,60] [--server-flags "..."]
 *
 * Without --data a fresh data directory gets --base-docs documents of ~1 KB first (one
 * datasource, one reader). With --data DIR it reuses the 1M set that
 * `node --import tsx bench/search/http.ts --keep DIR --push-only` builds (8 datasources,
 * a reader in 50 groups); the pool's documents go to its first datasource.
 * --snapshots DIR starts the server with --heapsnapshot-signal=SIGUSR2 and writes a
 * heap snapshot into DIR at each minute of --snapshot-at (compare them in Chrome DevTools,
 * Memory, Comparison). Zero errors is part of the result: any non-2xx answer counts.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASOURCES, userTokenSets } from '../corpora/scale.ts';
import { createRng } from '../lib/prng.ts';
import { MASTER, percentile, rssMB, startService } from '../lib/service.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
};
const MINUTES = Number(arg('minutes', '30'));
const RATE = Number(arg('rate', '1270'));
const WARMUP = Number(arg('warmup', '5'));
const DATA = arg('data', '');
const BASE_DOCS = Number(arg('base-docs', '13000'));
const SNAPSHOTS = arg('snapshots', '');
const SNAPSHOT_AT = new Set(arg('snapshot-at', '').split(',').filter(Boolean).map(Number));
const SERVER_FLAGS = arg('server-flags', '').split(' ').filter(Boolean);
const POOL = 1000;
const MAX_IN_FLIGHT = 16;
const FRESH_USER = 'soak.reader@example.com';
const SCALE_USER = 'bench.user@example.com';

const WORDS = (
  'travel policy expense report quarterly budget contract customer invoice project meeting agenda review ' +
  'security incident database backup network server deployment release roadmap hiring onboarding training ' +
  'water light house river plant animal color measure ancient church money horse body music ' +
  'Urlaubsantrag Rechnung Vertrag Kunde Projekt Bericht Abteilung Reisekosten Sicherheit Datenschutz'
).split(' ');

type Kind = 'push' | 'search' | 'chat' | 'check';
const MIX: [Kind, number][] = [
  ['push', 0.15],
  ['search', 0.55],
  ['chat', 0.1],
  ['check', 0.2],
];

interface Minute {
  counts: Record<Kind, number>;
  errors: number;
  /** `<kind> <status or error name>` of the errors. */
  errorKinds: Map<string, number>;
  searchMs: number[];
  rss: number;
}

const rng = createRng(2026);
const words = (n: number) => Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');

async function main(): Promise<void> {
  const reuse = DATA !== '' && existsSync(join(DATA, 'bench-ready'));
  const dataDir = DATA || (await mkdtemp(join(tmpdir(), 'soak-')));
  const flags = [...SERVER_FLAGS];
  if (SNAPSHOTS) flags.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${SNAPSHOTS}`);
  const svc = await startService(dataDir, { COMMIT_INTERVAL_MS: '1000' }, flags);
  const { call } = svc;
  const saKey = (await call('POST', '/api/admin/service-accounts', MASTER, { name: `soak-${Date.now()}` })).key;
  let datasource: string;
  let user: string;
  let permissions: Record<string, unknown> | undefined;
  if (reuse) {
    datasource = DATASOURCES[0];
    user = SCALE_USER;
    permissions = { allowed_groups: [userTokenSets(1)[0][0]] };
  } else {
    datasource = 'soak';
    user = FRESH_USER;
    await call('POST', '/api/indexing/datasources', saKey, { name: datasource, display_name: 'Soak' });
    await call('POST', '/api/admin/accounts', MASTER, { email: user });
    await call('POST', '/api/indexing/users', saKey, { datasource, user: { email: user } });
    console.log(`pushing ${BASE_DOCS.toLocaleString()} base documents...`);
    for (let i = 0; i < BASE_DOCS; i += 500) {
      const docs = [];
      for (let j = i; j < Math.min(BASE_DOCS, i + 500); j++)
        docs.push({
          datasource,
          id: `base-${j}`,
          title: words(6),
          file_type: 'wiki',
          last_modified: '2026-01-01T00:00:00.000Z',
          body: { mime_type: 'text/plain', text_content: words(140) },
        });
      await call('POST', '/api/indexing/documents', saKey, { documents: docs });
    }
  }
  const personal = (await call('POST', `/api/admin/accounts/${encodeURIComponent(user)}/keys`, MASTER, {})).key;
  // The pool exists before the load starts, so check-access always names a pushed document.
  for (let i = 0; i < POOL; i += 500) {
    const docs = [];
    for (let j = i; j < i + 500; j++) docs.push(poolDoc(datasource, j, permissions));
    await call('POST', '/api/indexing/documents?wait=true', saKey, { documents: docs });
  }

  const request = async (kind: Kind): Promise<{ ok: boolean; ms: number; why?: string }> => {
    const t0 = performance.now();
    let res: Response;
    try {
      if (kind === 'search') {
        res = await fetch(`${svc.base}/api/beta/search?count=10&query=${encodeURIComponent(words(1 + rng.int(2)))}`, {
          headers: { authorization: `Bearer ${personal}` },
        });
      } else if (kind === 'chat') {
        res = await fetch(`${svc.base}/api/beta/serviceai/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${personal}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'extractive',
            messages: [{ role: 'user', content: `What do we know about ${words(2)}?` }],
            tools: [{ type: 'function', function: { name: 'serviceSearch' } }],
          }),
        });
      } else if (kind === 'check') {
        res = await fetch(`${svc.base}/api/indexing/documents/check-access`, {
          method: 'POST',
          headers: { authorization: `Bearer ${saKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ datasource, document_id: `pool-${rng.int(POOL)}`, user_email: user }),
        });
      } else {
        const docs = Array.from({ length: 5 }, () => poolDoc(datasource, rng.int(POOL), permissions));
        res = await fetch(`${svc.base}/api/indexing/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${saKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ documents: docs }),
        });
      }
      await res.arrayBuffer();
      return { ok: res.ok, ms: performance.now() - t0, why: String(res.status) };
    } catch (err) {
      return { ok: false, ms: performance.now() - t0, why: (err as Error).name };
    }
  };

  const minutes: Minute[] = [];
  const fresh = (): Minute => ({
    counts: { push: 0, search: 0, chat: 0, check: 0 },
    errors: 0,
    errorKinds: new Map(),
    searchMs: [],
    rss: 0,
  });
  let current = fresh();
  let inFlight = 0;
  let dropped = 0;
  const started = performance.now();
  const end = started + MINUTES * 60_000;
  const interval = 60_000 / RATE;
  let next = started;
  console.log(
    `soak: ${MINUTES} min at ${RATE} requests/min, ${reuse ? `the kept set in ${DATA}` : `${BASE_DOCS} base documents`}; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| minute | requests | push | search | chat | check | errors | search p50 ms | search p99 ms | RSS MB |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const tick = setInterval(() => {
    const m = current;
    m.rss = rssMB(svc.child.pid);
    minutes.push(m);
    current = fresh();
    const total = Object.values(m.counts).reduce((a, b) => a + b, 0);
    console.log(
      `| ${minutes.length} | ${total} | ${m.counts.push} | ${m.counts.search} | ${m.counts.chat} | ${m.counts.check} | ${m.errors} | ${percentile(m.searchMs, 50).toFixed(1)} | ${percentile(m.searchMs, 99).toFixed(1)} | ${m.rss.toFixed(0)} |`,
    );
    if (m.errors > 0) console.log(`  errors: ${[...m.errorKinds].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
    if (SNAPSHOTS && SNAPSHOT_AT.has(minutes.length)) svc.child.kill('SIGUSR2');
  }, 60_000);
  while (performance.now() < end) {
    next += interval;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped++;
      continue;
    }
    const u = rng.next();
    let acc = 0;
    const kind = MIX.find(([, w]) => (acc += w) >= u)?.[0] ?? 'search';
    inFlight++;
    const m = current;
    void request(kind).then(({ ok, ms, why }) => {
      inFlight--;
      m.counts[kind]++;
      if (!ok) {
        m.errors++;
        const key = `${kind} ${why}`;
        m.errorKinds.set(key, (m.errorKinds.get(key) ?? 0) + 1);
      }
      if (kind === 'search') m.searchMs.push(ms);
    });
  }
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));
  clearInterval(tick);
  await svc.stop();
  if (!DATA) await rm(dataDir, { recursive: true, force: true });
  report(minutes, dropped);
}

function poolDoc(datasource: string, j: number, permissions?: Record<string, unknown>) {
  return {
    datasource,
    id: `pool-${j}`,
    title: words(5),
    file_type: 'wiki',
    last_modified: new Date(Date.now() - rng.int(1_000_000)).toISOString(),
    body: { mime_type: 'text/plain', text_content: words(150) },
    ...(permissions ? { permissions } : {}),
  };
}

function report(minutes: Minute[], dropped: number): void {
  const errors = minutes.reduce((n, m) => n + m.errors, 0);
  const total = minutes.reduce((n, m) => n + Object.values(m.counts).reduce((a, b) => a + b, 0), 0);
  const after = minutes.slice(WARMUP);
  const med = (xs: number[]) => percentile(xs, 50);
  const first = med(after.slice(0, 3).map((m) => m.rss));
  const last = med(after.slice(-3).map((m) => m.rss));
  // Least-squares slope of RSS over the minutes after warm-up.
  const xs = after.map((_, i) => i);
  const ys = after.map((m) => m.rss);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope =
    xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) /
    Math.max(
      1e-9,
      xs.reduce((a, x) => a + (x - mx) ** 2, 0),
    );
  const searchP99 = percentile(
    minutes.flatMap((m) => m.searchMs),
    99,
  );
  console.log(
    `\n${total} requests, ${errors} errors, ${dropped} ticks skipped (16 in flight); search p99 over the run ${searchP99.toFixed(1)} ms`,
  );
  console.log(
    `RSS after warm-up (minutes ${WARMUP + 1}-${WARMUP + 3}, median) ${first.toFixed(0)} MB, at the end (last 3, median) ${last.toFixed(0)} MB: ${(((last - first) / first) * 100).toFixed(1)}%; slope ${slope.toFixed(2)} MB/min`,
  );
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
