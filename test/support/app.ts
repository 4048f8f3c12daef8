/**
 * The test kit's one way to build the app: the real configuration (with the test
 * master key), the real state (in memory, or on disk under `dataDir`), a
 * settable clock and `createApp(services)`; `call` sends JSON with a bearer key
 * and answers status, parsed body and headers. The other harnesses of
 * test/support build on `testServices` and `callJson`.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createAccount, createPersonalKey } from '../../src/accounts/accounts.ts';
import type { Role } from '../../src/accounts/principal.ts';
import { createServiceAccount } from '../../src/accounts/service-accounts.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { openMemoryState, openState } from '../../src/open-state.ts';
import type { Services } from '../../src/services.ts';
import type { StateStore } from '../../src/state/store.ts';

/** The master key (ADMIN_KEY) of every test app. */
export const MASTER_KEY = 'master-key-for-tests-0123456789';

export interface TestServicesOptions {
  /** Environment variables on top of ADMIN_KEY (and DATA_DIR when `dataDir` is given). */
  env?: Record<string, string>;
  /** ADMIN_KEY; default MASTER_KEY; null leaves it unset. */
  adminKey?: string | null;
  /** Persist the state under this data directory instead of memory. */
  dataDir?: string;
  /** A state to use as it is (overrides `dataDir` for the state). */
  state?: StateStore;
  log?: Logger;
  /** Wall clock; default Date.now. */
  now?: () => number;
}

/** The configuration of a test app: `env` over the test master key. */
export function testConfig(env: Record<string, string> = {}, adminKey: string | null = MASTER_KEY): Config {
  return loadConfig({ ...(adminKey === null ? {} : { ADMIN_KEY: adminKey }), ...env });
}

/** Configuration, logger, state and clock: the services every app is built from. */
export async function testServices(opts: TestServicesOptions = {}): Promise<Services> {
  const config = testConfig({ ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}), ...opts.env }, opts.adminKey);
  const log = opts.log ?? silentLogger;
  const state = opts.state ?? (opts.dataDir ? await openState(config, log) : await openMemoryState());
  return { config, log, state, now: opts.now ?? (() => Date.now()) };
}

/** The state of a test app: on disk under `dataDir` (reopened over its files), else in memory. */
export async function openTestState(dataDir?: string): Promise<StateStore> {
  return (await testServices({ dataDir })).state;
}

export interface JsonResponse {
  status: number;
  /** The parsed JSON body; undefined for an empty body. */
  body: any;
  headers: Headers;
}

/** Send `body` (an object, or a raw string) as JSON with bearer `key` (null: none), or with the raw `header`. */
export async function callJson(
  app: { request(path: string, init: RequestInit): Response | Promise<Response> },
  method: string,
  path: string,
  init: { key?: string | null; body?: unknown; header?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.header !== undefined) headers.authorization = init.header;
  else if (init.key) headers.authorization = `Bearer ${init.key}`;
  const req: RequestInit = { method, headers };
  if (init.body !== undefined) req.body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const res = await app.request(path, req);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** A new account for `email` and a personal key of it, through the accounts domain. */
export async function personalKey(
  services: Pick<Services, 'state' | 'now'>,
  email: string,
  roles: Role[] = [],
): Promise<string> {
  const deps = { state: services.state, now: services.now };
  await createAccount(deps, { email, roles }, 'master');
  return (await createPersonalKey(deps, email, null, 'master')).key;
}

/** A new service account's key (`svcsa_`), through the accounts domain. */
export async function serviceAccountKey(services: Pick<Services, 'state' | 'now'>, name: string): Promise<string> {
  const created = await createServiceAccount(
    { state: services.state, now: services.now },
    { name, expiresAt: null, createdBy: 'test' },
  );
  return created.key;
}

/** `app` served on a real socket on 127.0.0.1 (port 0). */
export async function serveApp(app: { fetch: (req: Request) => Response | Promise<Response> }) {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      (server as Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The app over test services with a settable clock (starting 2026-06-01), called through `app.request()`. */
export async function appHarness(opts: TestServicesOptions = {}) {
  let clock = Date.parse('2026-06-01T00:00:00.000Z');
  const services = await testServices({ now: () => clock, ...opts });
  const app = createApp(services);
  const adminKey = opts.adminKey === undefined ? MASTER_KEY : opts.adminKey;
  const call = (method: string, path: string, init: { key?: string | null; body?: unknown; header?: string } = {}) =>
    callJson(app, method, path, init);
  return {
    app,
    services,
    call,
    /** Call as the master key. */
    admin: (method: string, path: string, body?: unknown) => call(method, path, { key: adminKey, body }),
    setNow: (ms: number) => {
      clock = ms;
    },
    now: () => clock,
    close: () => services.state.close(),
  };
}

export type AppHarness = Awaited<ReturnType<typeof appHarness>>;
