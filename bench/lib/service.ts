/**
 * The real server (src/main.ts) in a child process for the service-level
 * benchmarks (soak, large pushes): a free port, a JSON API helper, and the
 * server's resident set size and CPU time read from /proc (Linux).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MASTER = 'bench-master-key-0123456789abcdef';

export interface Service {
  base: string;
  child: ChildProcess;
  call: (method: string, path: string, key: string, body?: unknown) => Promise<any>;
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
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
 * Starts the server on `dataDir` with `env` on top of the defaults, and waits until it answers.
 * `root`: the checkout whose src/main.ts runs (default this one; another for an A/B).
 */
export async function startService(
  dataDir: string,
  env: Record<string, string>,
  nodeFlags: string[] = [],
  root = ROOT,
): Promise<Service> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ADMIN_KEY: MASTER,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // As `npm start` runs the server (README, Memory): at most two glibc malloc arenas.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (i > 1200) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
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
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { base, child, call, stop };
}

/** Resident set size of a process in MB (VmRSS), NaN once it is gone. */
export function rssMB(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** User + system CPU time of a process in ms (/proc/PID/stat, clock ticks of 10 ms). */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Nearest-rank percentile of `values` (unsorted), NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
