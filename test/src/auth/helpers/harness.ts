/**
 * Test harness for authentication and the admin API: the real app over a
 * StateStore (in memory by default, or on disk under `dataDir`), a settable
 * clock, and `call(method, path, {key, body})` returning status, JSON body and headers.
 */
import { createApp } from '../../../../src/app.ts';
import { loadConfig } from '../../../../src/config.ts';
import { silentLogger, type Logger } from '../../../../src/log.ts';
import type { Services } from '../../../../src/services.ts';
import { openMemoryState, openState } from '../../../../src/open-state.ts';

export const MASTER = 'master-key-for-tests-0123456789';

export interface HarnessOptions {
  /** ADMIN_KEY; default MASTER; null leaves it unset. */
  adminKey?: string | null;
  /** Persist under this data directory instead of memory. */
  dataDir?: string;
  log?: Logger;
}

export async function harness(opts: HarnessOptions = {}) {
  const env: Record<string, string> = {};
  const adminKey = opts.adminKey === undefined ? MASTER : opts.adminKey;
  if (adminKey !== null) env.ADMIN_KEY = adminKey;
  if (opts.dataDir) env.DATA_DIR = opts.dataDir;
  const config = loadConfig(env);
  const log = opts.log ?? silentLogger;
  const state = opts.dataDir ? await openState(config, log) : await openMemoryState();
  let clock = Date.parse('2026-06-01T00:00:00.000Z');
  const services: Services = { config, log, state, now: () => clock };
  const app = createApp(services);

  async function call(
    method: string,
    path: string,
    init: { key?: string | null; body?: unknown; header?: string } = {},
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.header !== undefined) headers.authorization = init.header;
    else if (init.key !== null && init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
    const req: RequestInit = { method, headers };
    if (init.body !== undefined) req.body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const res = await app.request(path, req);
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as any), headers: res.headers };
  }

  return {
    app,
    services,
    call,
    /** Call as the master key. */
    admin: (method: string, path: string, body?: unknown) => call(method, path, { key: adminKey ?? undefined, body }),
    setNow: (ms: number) => {
      clock = ms;
    },
    now: () => clock,
    close: () => state.close(),
  };
}

export type Harness = Awaited<ReturnType<typeof harness>>;
