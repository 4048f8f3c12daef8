/**
 * One person's search while others send worst-case queries (issue: bounded cost per request).
 * The real server (src/main.ts) in a child process on the data set of search/http.ts (the
 * deterministic GCIDE scale set pushed through the Indexing API; pushed first when DIR does
 * not hold it yet). Then two phases of `--seconds` each:
 *  1. quiet: the person (bench.user@example.com) searches one word at a time, back to back;
 *  2. attack: the same, while `--attackers` clients send worst-case queries back to back
 *     (1,024 common words, 1,024 random words, 400 prefix clauses `xy*`, 300 two-word
 *     phrases of common words, in turn), from `--attack-accounts` accounts of their own
 *     (default 1: one key holder) that see the same documents.
 * Prints the person's p50 / p99 / max in both phases, the attackers' answers by status, and the
 * server's budget log lines (cuts and refusals).
 *
 *   node --import tsx bench/search/fairness.ts --data DIR [--docs 13000] [--seconds 30] [--attackers 4]
 *     [--attack-accounts 1] [--threads N] [--server-root DIR]
 *
 * --docs sizes the set pushed into an empty DIR (13,000; 1,000,000 takes about 10 minutes);
 * --threads sets SEARCH_THREADS; --server-root runs the server of another checkout of this
 * repository (e.g. an earlier commit, for before/after figures) on the same data. The server
 * starts with MERGE_IDLE_MS=2000 and is measured once its index is compacted (restarted at
 * LOG_LEVEL=warn). Environment variables SEARCH_* are passed on to the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGcide } from '../corpora/gcide.ts';
import { DATASOURCES, generateScaleDocs, sentencePool, userTokenSets } from '../corpora/scale.ts';
import { summarizeLatencies } from '../lib/metrics.ts';
import { createRng } from '../lib/prng.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : def;
};
const DATA = arg('data', '');
const DOCS = Number(arg('docs', '13000'));
const SECONDS = Number(arg('seconds', '30'));
const ATTACKERS = Number(arg('attackers', '4'));
const ATTACK_ACCOUNTS = Number(arg('attack-accounts', '1'));
const THREADS = arg('threads', '');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_ROOT = resolve(arg('server-root', ROOT));
/** The master key and person of search/http.ts's data set. */
const MASTER = 'bench-master-key-0123456789abcdef';
const PERSON = 'bench.user@example.com';

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

/** Server log lines by message (budget cuts and refusals, errors), counted while it runs. */
const logged = new Map<string, number>();
let compacted: (() => void) | null = null;

function startServer(port: number, logLevel: 'info' | 'warn'): ChildProcess {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ADMIN_KEY: MASTER,
    DATA_DIR: DATA,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: logLevel,
    MERGE_IDLE_MS: '2000',
  };
  if (THREADS !== '') env.SEARCH_THREADS = THREADS;
  const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let rec: { level?: string; msg?: string };
      try {
        rec = JSON.parse(line);
      } catch {
        continue;
      }
      if (rec.msg === 'search engine compacted') compacted?.();
      if (rec.level === 'warn' || rec.level === 'error' || /search (refused|stopped)/.test(rec.msg ?? ''))
        logged.set(`${rec.level}: ${rec.msg}`, (logged.get(`${rec.level}: ${rec.msg}`) ?? 0) + 1);
    }
  });
  return child;
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}

async function waitUp(base: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function pushSet(): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/search/http.ts', '--docs', String(DOCS), '--keep', DATA, '--push-only'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  return new Promise((ok, fail) =>
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`push exited ${code}`)))),
  );
}

/** The worst-case queries, in turn: long OR queries, short prefix-style words, many phrases. */
function attackQueries(sentences: string[]): string[] {
  const freq = new Map<string, number>();
  for (const s of sentences.slice(0, 20_000))
    for (const w of s.toLowerCase().match(/[a-z]{3,}/g) ?? []) freq.set(w, (freq.get(w) ?? 0) + 1);
  const common = [...freq.entries()].sort((a, b) => b[1] - a[1]).map((e) => e[0]);
  const short = common.filter((w) => w.length <= 6).slice(0, 5000);
  const rng = createRng(7);
  const upTo = (words: string[], chars: number) => {
    let q = '';
    for (const w of words) {
      if (q.length + w.length + 1 > chars) break;
      q += (q ? ' ' : '') + w;
    }
    return q;
  };
  const out: string[] = [];
  for (let i = 0; i < 8; i++) {
    out.push(upTo(common.slice(i * 10, i * 10 + 1024), 8192));
    out.push(
      upTo(
        Array.from({ length: 1024 }, () => rng.pick(short)),
        8192,
      ),
    );
    out.push(
      Array.from({ length: 400 }, (_, k) => {
        const a = (k + i * 37) % 676;
        return `${String.fromCharCode(97 + (a % 26))}${String.fromCharCode(97 + Math.floor(a / 26))}*`;
      }).join(' '),
    );
    out.push(
      upTo(
        Array.from({ length: 300 }, (_, k) => `"${common[k + i]} ${common[k + i + 1]}"`),
        8192,
      ),
    );
  }
  return out;
}

async function main(): Promise<void> {
  if (!DATA) throw new Error('--data DIR is required (the data directory; pushed when it holds no set yet)');
  if (!existsSync(join(DATA, 'bench-ready'))) await pushSet();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const settled = new Promise<void>((ok) => (compacted = ok));
  let server = startServer(port, 'info');
  process.on('exit', () => server.exitCode === null && server.kill('SIGKILL'));
  await waitUp(base);
  await settled;
  await stopServer(server);
  server = startServer(port, 'warn');
  await waitUp(base);

  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 409) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  // The attackers see what the person sees: registered everywhere, members of the same groups.
  const svc = (await call('POST', '/api/admin/service-accounts', MASTER, { name: `fair-${Date.now()}` })).key;
  const groups = userTokenSets(1)[0];
  const attackers = Array.from({ length: ATTACK_ACCOUNTS }, (_, i) => `attacker${i}@example.com`);
  for (const email of attackers) {
    await call('POST', '/api/admin/accounts', MASTER, { email });
    for (const ds of DATASOURCES) {
      await call('POST', '/api/indexing/users', svc, { datasource: ds, user: { email } });
      for (const g of groups.slice(0, 25))
        await call('POST', '/api/indexing/memberships', svc, {
          datasource: ds,
          membership: { group_name: g, member_email: email },
        });
    }
  }
  const keyOf = async (email: string) =>
    (await call('POST', `/api/admin/accounts/${encodeURIComponent(email)}/keys`, MASTER, {})).key as string;
  const personKey = await keyOf(PERSON);
  const attackerKeys = await Promise.all(attackers.map(keyOf));

  const sentences = sentencePool(loadGcide().docs);
  const rng = createRng(99);
  const oneWord: string[] = [];
  while (oneWord.length < 20_000) {
    const w = rng
      .pick(sentences)
      .toLowerCase()
      .match(/[a-z]{4,}/g);
    if (w) oneWord.push(rng.pick(w));
  }
  const attacks = attackQueries(sentences);
  let qi = 0;

  /** The status of one search; sent again once when a kept-alive socket was closed under it (ECONNRESET). */
  const search = async (key: string, query: string, retry = true): Promise<number> => {
    try {
      const res = await fetch(`${base}/api/beta/search?query=${encodeURIComponent(query)}&count=10`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await res.arrayBuffer();
      return res.status;
    } catch (err) {
      if (retry && /ECONNRESET|other side closed/.test(String((err as Error).cause ?? err)))
        return search(key, query, false);
      throw err;
    }
  };
  /** The person's searches, back to back, until `until`: latencies in ms (every answer must be 200). */
  const person = async (until: number) => {
    const ms: number[] = [];
    while (performance.now() < until) {
      const t = performance.now();
      const status = await search(personKey, oneWord[qi++ % oneWord.length]);
      if (status !== 200) throw new Error(`the person's search answered ${status}`);
      ms.push(performance.now() - t);
    }
    return ms;
  };
  const statuses = new Map<number | string, number>();
  const attacker = async (i: number, until: number) => {
    for (let n = i; performance.now() < until; n += ATTACKERS) {
      let status: number | string;
      try {
        status = await search(attackerKeys[i % attackerKeys.length], attacks[n % attacks.length]);
      } catch (err) {
        status = `error (${(err as Error).message})`;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };

  for (let w = 0; w < 200; w++) await search(personKey, oneWord[qi++]); // warm-up
  const quiet = summarizeLatencies(await person(performance.now() + SECONDS * 1000));
  const load1 = loadavg()[0];
  logged.clear();
  const until = performance.now() + SECONDS * 1000;
  const [attacked] = await Promise.all([
    person(until).then(summarizeLatencies),
    ...Array.from({ length: ATTACKERS }, (_, i) => attacker(i, until)),
  ]);
  const load2 = loadavg()[0];
  await stopServer(server);

  const f = (x: number) => x.toFixed(1);
  console.log(`\nserver: ${SERVER_ROOT}, data ${DATA}, search threads ${THREADS || 'server default'}`);
  console.log(`| phase | person's one-word searches | p50 ms | p99 ms | max ms | load (1 min) |`);
  console.log('|---|--:|--:|--:|--:|--:|');
  console.log(
    `| alone | ${quiet.count} | ${f(quiet.p50Ms)} | ${f(quiet.p99Ms)} | ${f(quiet.maxMs)} | ${load1.toFixed(2)} |`,
  );
  console.log(
    `| ${ATTACKERS} clients of ${ATTACK_ACCOUNTS} account(s) sending worst-case queries | ${attacked.count} | ${f(attacked.p50Ms)} | ${f(attacked.p99Ms)} | ${f(attacked.maxMs)} | ${load2.toFixed(2)} |`,
  );
  const answers = [...statuses.entries()].map(([s, n]) => `${n} × ${s}`).join(', ');
  console.log(`\nattackers' answers: ${answers || 'none'}`);
  for (const [msg, n] of logged) console.log(`server log during the attack: ${n} × ${msg}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
