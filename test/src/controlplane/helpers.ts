/**
 * Test fixture for the Indexing API: the real app over an in-memory state
 * with every part, a service-account key, a personal key and the master key,
 * and a `call` helper that sends JSON with a bearer key.
 */
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { silentLogger } from '../../../src/log.ts';
import { createAccount, createPersonalKey } from '../../../src/accounts/accounts.ts';
import { createServiceAccount } from '../../../src/accounts/service-accounts.ts';
import { openMemoryState } from '../../../src/open-state.ts';
import type { Services } from '../../../src/services.ts';

export const MASTER_KEY = 'test-master-key-0123456789abcdef';

export async function indexingFixture() {
  const config = loadConfig({ ADMIN_KEY: MASTER_KEY });
  const state = await openMemoryState();
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const services: Services = { config, log: silentLogger, state, now: () => clock };
  const app = createApp(services);
  const sa = await createServiceAccount(services, { name: 'indexer', expiresAt: null, createdBy: 'master' });
  await createAccount(services, { email: 'person@example.com', roles: ['administrator', 'developer'] }, 'master');
  const personal = await createPersonalKey(services, 'person@example.com', null, 'master');

  /** Send `body` (object, or a raw string) to `/api/indexing{path}` with `key` (default: the service key; null: none). */
  async function call(method: string, path: string, body?: unknown, key: string | null = sa.key) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await app.request(`/api/indexing${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as any), headers: res.headers };
  }

  return {
    app,
    services,
    call,
    serviceKey: sa.key,
    personalKey: personal.key,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

export type IndexingFixture = Awaited<ReturnType<typeof indexingFixture>>;
