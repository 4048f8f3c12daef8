/**
 * The real server for the connector benchmarks: a child process on a free port with a fresh
 * DATA_DIR, an admin API client, a run started and awaited through the admin API (the run's own
 * started_at and finished_at give its duration: it ends once its last documents are committed),
 * and the server's RSS and CPU time read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MASTER = 'bench-master-key-0123456789abcdef';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface BenchServer {
  base: string;
  pid: number;
  admin(method: string, path: string, body?: unknown): Promise<any>;
  /** Start a run of `id` and resolve with its final view; `onTick` sees the live status every `tickMs`. */
  run(id: string, onTick?: (status: any) => void, tickMs?: number): Promise<any>;
  rssMb(): Promise<number>;
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), 'bench-connectors-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_KEY: MASTER, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const proc = async (file: string) => readFile(`/proc/${child.pid}/${file}`, 'utf8');
  return {
    base,
    pid: child.pid!,
    admin,
    async run(id, onTick, tickMs = 200) {
      const started = await admin('POST', `/connectors/${id}/run`);
      for (;;) {
        await new Promise((r) => setTimeout(r, tickMs));
        const status = await admin('GET', `/connectors/${id}/status`);
        onTick?.(status);
        if (status.state !== 'running' && status.last_run?.run === started.run.run) return status.last_run;
      }
    },
    async rssMb() {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(await proc('status'))?.[1] ?? NaN);
      return kb / 1024;
    },
    async cpuMs() {
      const stat = await proc('stat');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    },
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Duration of a finished run in seconds (server clock). */
export const runSeconds = (view: { started_at: string; finished_at: string }) =>
  (Date.parse(view.finished_at) - Date.parse(view.started_at)) / 1000;
