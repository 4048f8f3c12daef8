/**
 * The documents harness: the test app (app.ts) with the real engine (in
 * memory, commits on demand) and the real durable queue in a temp directory,
 * a service account and helpers to push, commit and call; `doc()` builds a
 * pushed document.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDirectory, openIndex, type Directory } from '../../engine/index.ts';
import { extractInline } from '../../extractors/index.ts';
import { createApp } from '../../src/app.ts';
import { blobsDir } from '../../src/documents/blobs.ts';
import { createBodyReader } from '../../src/documents/body.ts';
import { ConnectorScheduler } from '../../src/connectors/scheduler.ts';
import { DocumentService } from '../../src/documents/service.ts';
import { silentLogger } from '../../src/log.ts';
import { DOCUMENT_SCHEMA } from '../../src/documents/index-schema.ts';
import type { Services } from '../../src/services.ts';
import { SearchPool } from '../../src/search/pool.ts';
import type { StateStore } from '../../src/state/store.ts';
import { callJson, serviceAccountKey, testServices } from './app.ts';

export interface DocsHarnessOptions {
  env?: Record<string, string>;
  dir?: string;
  directory?: Directory;
  state?: StateStore;
  maxPendingBytes?: number;
  /** Engine periodic commit (default 0: only on demand through `commit()`). */
  commitIntervalMs?: number;
  /** Records in statuses.bin before a compaction is considered (service default). */
  statusCompactMinRecords?: number;
  /** Search worker threads (src/search/pool.ts); default 0: searches run on the test's thread. */
  searchThreads?: number;
  /** The services' wall clock (epoch ms; keys, date presets of searches); default Date.now. */
  now?: () => number;
  /** Run connectors (a ConnectorScheduler over the documents; no background scheduling: tests start runs). */
  connectors?: boolean;
  /** Further services (web assets, fakes of external services). */
  services?: Partial<Services>;
}

export async function docsHarness(opts: DocsHarnessOptions = {}) {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'docs-test-')));
  const base = await testServices({ env: { DATA_DIR: dir, ...opts.env }, state: opts.state, now: opts.now });
  const { config, state } = base;
  const directory = opts.directory ?? new MemoryDirectory();
  const index = await openIndex({
    directory,
    schema: DOCUMENT_SCHEMA,
    commitIntervalMs: opts.commitIntervalMs ?? 0,
    merge: false,
  });
  const documents = await DocumentService.open({
    dir: join(dir, 'documents'),
    index,
    state,
    readBody: createBodyReader({
      maxBinaryBytes: config.maxBinaryBytes,
      extract: extractInline,
      blobsDir: blobsDir(join(dir, 'documents')),
    }),
    log: silentLogger,
    now: () => Date.now(),
    maxPendingBytes: opts.maxPendingBytes,
    statusCompactMinRecords: opts.statusCompactMinRecords,
  });
  const scheduling = { perAccount: config.search.accountConcurrency, cheapWords: config.search.cheapWords };
  const searchRunner = opts.searchThreads
    ? new SearchPool(index, opts.searchThreads, silentLogger, scheduling)
    : undefined;
  const connectors = opts.connectors
    ? new ConnectorScheduler({ config, state, documents, log: silentLogger, now: () => Date.now() })
    : undefined;
  await connectors?.start({ background: false });
  const services: Services = { ...base, documents, searchRunner, connectors, ...opts.services };
  const app = createApp(services);

  /** Send `body` (object or raw string) to `path` with bearer `key` (null: none). */
  const call = (method: string, path: string, key: string | null, body?: unknown) =>
    callJson(app, method, path, { key, body });
  // A name of its own per harness, so a harness can also be opened again on a persisted state.
  const key = await serviceAccountKey(services, `indexer-${crypto.randomUUID().slice(0, 8)}`);

  return {
    app,
    services,
    documents,
    index,
    dir,
    key,
    call,
    /** Call the Indexing API with the service-account key. */
    api: (method: string, path: string, body?: unknown) => call(method, `/api/indexing${path}`, key, body),
    /** Apply everything queued so far and commit the engine. */
    async commit() {
      await documents.pipeline.drained();
      await index.writer.commit();
    },
    async close(removeDir = opts.dir === undefined) {
      await connectors?.stop();
      await searchRunner?.close();
      await documents.close();
      await index.close();
      if (removeDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export type DocsHarness = Awaited<ReturnType<typeof docsHarness>>;

export const doc = (over: Record<string, unknown> = {}) => ({
  datasource: 'wiki',
  id: 'doc-1',
  title: 'Travel policy',
  file_type: 'wiki',
  last_modified: '2026-01-01T00:00:00Z',
  body: { mime_type: 'text/plain', text_content: 'Employees book trains for trips under 500 km.' },
  ...over,
});
