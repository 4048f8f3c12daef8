/**
 * Test harness for connectors and upload sessions: the real app with the real engine, document
 * pipeline, upload sessions and connector scheduler (background scheduling off: tests start runs
 * themselves), a control-plane
 * state in memory or on disk, an engine that commits every few milliseconds (a run waits for the
 * commit holding its documents), and helpers for the admin API, runs, file trees and searches.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FsDirectory, MemoryDirectory, openIndex, type Index } from '../../engine/index.ts';
import { extractInline, type Extraction, type FileInput } from '../../extractors/index.ts';
import { createApp } from '../../src/app.ts';
import { connectorRecords } from '../../src/connectors/state.ts';
import { ConnectorScheduler } from '../../src/connectors/scheduler.ts';
import type { RunView } from '../../src/connectors/run-log.ts';
import { blobsDir } from '../../src/documents/blobs.ts';
import { createBodyReader } from '../../src/documents/body.ts';
import { DocumentService } from '../../src/documents/service.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { AuditLog } from '../../src/audit/audit.ts';
import { DOCUMENT_SCHEMA, documentKey } from '../../src/documents/index-schema.ts';
import type { Services } from '../../src/services.ts';
import { documentIdOf } from '../../src/connectors/ids.ts';
import { MASTER_KEY, testServices } from './app.ts';
import { UploadSessions } from '../../src/uploads/sessions.ts';

export { MASTER_KEY as MASTER } from './app.ts';
export const SECRET = 'connector-secret-for-tests-0123';

export interface HarnessOptions {
  env?: Record<string, string>;
  /** Keep state and index on disk in this directory (reopen tests); default: state in memory, a fresh temp dir. */
  dir?: string;
  onDisk?: boolean;
  /** Schedule runs in the background as the server does (default false: tests start runs). */
  background?: boolean;
  /** The logger of every service (default: silent). */
  log?: Logger;
  /** Keep an audit log in `<dir>/audit`, as the server does (default false). */
  audit?: boolean;
}

export async function connectorHarness(opts: HarnessOptions = {}) {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'connectors-test-')));
  const log = opts.log ?? silentLogger;
  const onDisk = opts.onDisk ?? opts.dir !== undefined;
  const base = await testServices({
    env: { DATA_DIR: dir, CONNECTOR_SECRET: SECRET, ...opts.env },
    dataDir: onDisk ? dir : undefined,
  });
  const { config, state } = base;
  const index: Index = await openIndex({
    directory: onDisk ? await FsDirectory.open(join(dir, 'index')) : new MemoryDirectory(),
    schema: DOCUMENT_SCHEMA,
    commitIntervalMs: 10,
    merge: false,
  });
  const extracted: string[] = [];
  const extract = async (
    input: Uint8Array | FileInput,
    o: { mediaType: string; fileName?: string },
  ): Promise<Extraction> => {
    extracted.push(o.fileName ?? '');
    return extractInline(input, o);
  };
  const documents = await DocumentService.open({
    dir: join(dir, 'documents'),
    index,
    state,
    readBody: createBodyReader({
      maxBinaryBytes: config.maxBinaryBytes,
      extract,
      blobsDir: blobsDir(join(dir, 'documents')),
    }),
    log,
    now: () => Date.now(),
  });
  const now = () => Date.now();
  const scheduler = new ConnectorScheduler({ config, state, documents, log, now });
  await scheduler.start({ background: opts.background ?? false });
  const uploads = await UploadSessions.open(join(dir, 'uploads'), {
    state,
    documents,
    maxBinaryBytes: config.maxBinaryBytes,
    now,
    log,
  });
  const audit = opts.audit ? new AuditLog({ dir: join(dir, 'audit'), log, now, retentionDays: 30 }) : undefined;
  const services: Services = { config, log, state, now, documents, connectors: scheduler, uploads, audit };
  const app = createApp(services);

  async function call(method: string, path: string, key: string | null, body?: unknown) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const res = await app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined, text };
  }
  const admin = (method: string, path: string, body?: unknown) => call(method, `/api/admin${path}`, MASTER_KEY, body);

  return {
    app,
    dir,
    config,
    state,
    index,
    documents,
    scheduler,
    /** File names the pipeline extracted (binary bodies), in order. */
    extracted,
    call,
    admin,
    /** Create a connector through the admin API; throws unless 201. */
    async create(body: Record<string, unknown>): Promise<any> {
      const res = await admin('POST', '/connectors', { interval_minutes: null, ...body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
      return res.body;
    },
    /** Start a run through the admin API and wait for its end. */
    async run(id: string): Promise<RunView> {
      const res = await admin('POST', `/connectors/${id}/run`);
      if (res.status !== 202) throw new Error(`run: ${res.status} ${res.text}`);
      return (await scheduler.whenIdle(id)) ?? res.body.run;
    },
    /** The committed document of an item key (undefined when absent). */
    doc(datasource: string, key: string) {
      const searcher = index.reader.searcher();
      try {
        return searcher.get(documentKey(datasource, documentIdOf(key))) ?? undefined;
      } finally {
        index.reader.release(searcher);
      }
    },
    /** Keys of the committed documents of a datasource (document ids). */
    ids(datasource: string): string[] {
      const searcher = index.reader.searcher();
      try {
        return [...searcher.keysWithKeyword('datasource', datasource)].map((k) => k.slice(datasource.length + 1));
      } finally {
        index.reader.release(searcher);
      }
    },
    records: () => connectorRecords(state),
    /** A service-account key for the Indexing API. */
    async serviceKey(): Promise<string> {
      const res = await admin('POST', '/service-accounts', { name: `sa-${crypto.randomUUID().slice(0, 8)}` });
      return res.body.key as string;
    },
    async close(removeDir = opts.dir === undefined) {
      await scheduler.stop();
      await uploads.close();
      await audit?.close();
      await documents.close();
      await index.close();
      await state.close();
      if (removeDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export type ConnectorHarness = Awaited<ReturnType<typeof connectorHarness>>;

/** Write files under `root` (relative path -> content), creating folders; `mtime` in epoch seconds. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>, mtime?: number) {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    if (mtime !== undefined) await utimes(path, mtime, mtime);
  }
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

export interface CommandEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `enterprise-search connector run <id>` (src/main.ts) on `dataDir`; with `killAtDone`, kills
 * it with SIGKILL once a progress line shows that many items done.
 */
export function runConnectorCommand(dataDir: string, id: string, killAtDone?: number): Promise<CommandEnd> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'connector', 'run', id], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        ADMIN_KEY: MASTER_KEY,
        CONNECTOR_SECRET: SECRET,
        COMMIT_INTERVAL_MS: '50',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      for (const m of c.toString().matchAll(/^run \d+: (\d+) of \d+ items$/gm))
        if (killAtDone !== undefined && Number(m[1]) >= killAtDone) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * The kill -9 scenario of the connector tests: `connector run <id>` three times, killed with SIGKILL
 * once `step`, 2 × `step` and 3 × `step` items are done (a run that ends first must exit 0), then
 * once to the end. Asserts at least one run was killed and the last one completed without failures;
 * answers the last run's status.
 */
export async function killThreeTimesThenFinish(dataDir: string, id: string, step: number): Promise<any> {
  let killed = 0;
  for (let round = 0; round < 3; round++) {
    // Items counted done were pushed and acknowledged (durable in the queue), recorded or not.
    const end = await runConnectorCommand(dataDir, id, step * (round + 1));
    if (end.signal === 'SIGKILL') killed++;
    else assert.equal(end.code, 0, end.stderr);
  }
  assert.ok(killed >= 1, 'at least one run was killed midway');
  const last = await runConnectorCommand(dataDir, id);
  assert.equal(last.code, 0, last.stderr);
  const final = JSON.parse(last.stdout);
  assert.equal(final.state, 'completed');
  assert.equal(final.counts.failed, 0);
  return final;
}
