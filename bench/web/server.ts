/**
 * The real server (src/main.ts) in a child process on a data directory
 * holding the HTTP search benchmark's set (bench/search/http.ts: the
 * deterministic GCIDE scale set pushed through the Indexing API into 8
 * datasources, one person registered on all of them and in 50 groups),
 * for the web page benchmarks. `ensureData` builds the set with
 * `bench/search/http.ts --keep DIR --push-only` when DIR does not hold it yet.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The admin key and the person of bench/search/http.ts. */
export const MASTER = 'bench-master-key-0123456789abcdef';
export const USER = 'bench.user@example.com';
export const PASSWORD = 'bench password for the web pages';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function ensureData(dir: string, docs: number): Promise<void> {
  if (existsSync(join(dir, 'bench-ready'))) return;
  console.log(`building the ${docs.toLocaleString()}-document set in ${dir} (bench/search/http.ts --push-only)...`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/search/http.ts'), '--docs', String(docs), '--keep', dir, '--push-only'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !existsSync(join(dir, 'bench-ready'))) throw new Error(`building the set failed (exit ${code})`);
}

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

export interface BenchServer {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the server on `dir`; resolves once it answers and, with `settle`, once the engine has
 * reported its index compacted (idle compaction after MERGE_IDLE_MS, default 30 s).
 */
export async function startServer(dir: string, opts: { settle: boolean }): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ADMIN_KEY: MASTER,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: opts.settle ? 'info' : 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  process.once('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  let compacted: () => void = () => {};
  const settled = new Promise<void>((resolve) => (compacted = resolve));
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"search engine compacted"')) compacted();
      else if (/"level":"(warn|error)"/.test(line)) console.log(line);
    }
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 1200) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  if (opts.settle) {
    const t0 = performance.now();
    await settled;
    console.log(`index settled after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return { base, child, stop };
}

/** Gives the benchmark person a password (admin API), so a browser can sign in. */
export async function setPassword(base: string): Promise<void> {
  const res = await fetch(`${base}/api/admin/accounts/${encodeURIComponent(USER)}/password`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`setting the password: ${res.status} ${await res.text()}`);
}
