/**
 * The Indexing API's fixture: the test app (test/support/app.ts) over an
 * in-memory state, a service-account key, an administrator's personal key,
 * and `call` sending JSON to `/api/indexing{path}` with a bearer key.
 */
import { createApp } from '../../src/app.ts';
import { callJson, personalKey, serviceAccountKey, testServices } from './app.ts';

export async function indexingFixture() {
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const services = await testServices({ now: () => clock });
  const app = createApp(services);
  const serviceKey = await serviceAccountKey(services, 'indexer');
  const personal = await personalKey(services, 'person@example.com', ['administrator', 'developer']);

  /** Send `body` (object, or a raw string) to `/api/indexing{path}` with `key` (default: the service key; null: none). */
  const call = (method: string, path: string, body?: unknown, key: string | null = serviceKey) =>
    callJson(app, method, `/api/indexing${path}`, { key, body });

  return {
    app,
    services,
    call,
    serviceKey,
    personalKey: personal,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

export type IndexingFixture = Awaited<ReturnType<typeof indexingFixture>>;
