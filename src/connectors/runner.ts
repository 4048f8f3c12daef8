/**
 * One run of one connector (the contract of types.ts): makes sure the target datasource exists,
 * opens the credentials and the item state, consumes the connector's items, reads the changed
 * ones (at most LOAD_CONCURRENCY at a time), pushes them (pusher.ts), and at the end of a
 * complete, uninterrupted run deletes the documents of keys it did not see.
 *
 * The run's view (run-log.ts) is updated in place as it goes, so the status shows progress;
 * the caller records its start and end. Aborting the signal (pause, shutdown) ends the
 * iteration: what was read is still pushed and recorded, nothing is deleted.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { DocumentService } from '../documents/service.ts';
import { createDatasource, indexingState, updateDatasource } from '../controlplane/datasources.ts';
import { createUser } from '../controlplane/principals.ts';
import type { DatasourceRecord, ObjectDefinition } from '../controlplane/state.ts';
import type { Logger } from '../log.ts';
import type { StateStore } from '../state/store.ts';
import { DELETE_CHUNK, isCandidate, ItemRun, load, type Loaded, type RunScope } from './item-run.ts';
import { errorMessage } from './pusher.ts';
import { ItemState } from './item-state.ts';
import type { RunView } from './run-log.ts';
import { openCredentials } from './secrets.ts';
import type { ConnectorRecord } from './state.ts';
import type { ConnectorModule, RunContext } from './types.ts';
import { ServiceError } from '../errors.ts';

export const LOAD_CONCURRENCY = 8;

export interface RunnerDeps {
  config: Config;
  state: StateStore;
  documents: DocumentService;
  log: Logger;
  now: () => number;
}

/** Directory of a connector's own files (item state, run records). */
export const connectorDir = (dataDir: string, id: string) => join(dataDir, 'connectors', id);
/** The connector's work folder (RunContext.workDir), inside its directory. */
export const workDirOf = (dataDir: string, id: string) => join(connectorDir(dataDir, id), 'work');

/** Runs `record` once; fills `view` (state, counts, failures, error) and never throws. */
export async function executeRun(
  deps: RunnerDeps,
  record: ConnectorRecord,
  module: ConnectorModule,
  view: RunView,
  signal: AbortSignal,
): Promise<void> {
  const log = deps.log.child({ connector: record.id, run: view.run });
  let items: ItemState | undefined;
  try {
    const ds = await ensureDatasource(deps, record, module);
    const credentials = record.credentials
      ? await openCredentials(deps.config.connectorSecret, record.id, record.credentials)
      : undefined;
    const header = { ds: ds.name, inc: ds.created_at, cfg: settingsDigest(record.settings) };
    items = await ItemState.open(connectorDir(deps.config.dataDir, record.id), header, log);
    await consume(deps, { record, module, view, signal, log, items, credentials });
  } catch (err) {
    view.state = 'failed';
    view.error = errorMessage(err);
    log.warn('connector run failed', { error: view.error });
  } finally {
    await items?.close().catch((err) => log.error('closing the item state failed', { error: err }));
  }
  view.finished_at = new Date(deps.now()).toISOString();
}

async function consume(deps: RunnerDeps, s: RunScope): Promise<void> {
  const { view, items, record, module } = s;
  const run = new ItemRun(deps, s);
  const workDir = workDirOf(deps.config.dataDir, record.id);
  await mkdir(workDir, { recursive: true });
  let incomplete: string | null = null;
  let announced = false;
  const ctx: RunContext = {
    connectorId: record.id,
    datasource: record.datasource,
    settings: record.settings,
    credentials: s.credentials,
    signal: s.signal,
    log: s.log,
    config: deps.config,
    workDir,
    previous: (key) => items.previous(key),
    knownKeys: () => items.keys(),
    setTotal: (n) => {
      announced = true;
      view.progress.total = Math.max(n, view.progress.done);
    },
    incomplete: (reason) => void (incomplete ??= reason),
  };
  const loads: Promise<Loaded>[] = [];
  let fatal: unknown;
  let yielded = 0;
  try {
    for await (const item of module.items(ctx)) {
      yielded++;
      if (!announced) view.progress.total = Math.max(view.progress.total, yielded);
      const prev = items.get(item.key);
      if (prev) prev.seen = view.run;
      if (isCandidate(item) && !(prev && prev.v === item.version && !prev.f)) {
        loads.push(load(item));
        if (loads.length >= LOAD_CONCURRENCY) await run.take(await loads.shift()!);
      } else await run.settle(item);
      if (s.signal.aborted) break;
    }
  } catch (err) {
    fatal = err;
  }
  while (loads.length > 0) await run.take(await loads.shift()!);
  await run.finish();
  if (fatal !== undefined) throw fatal;
  if (s.signal.aborted) {
    view.state = s.signal.reason === 'pause' ? 'paused' : 'stopped';
    return;
  }
  view.incomplete = incomplete;
  if (incomplete === null) {
    const unseen = items.unseen(view.run);
    view.progress.total += unseen.length;
    for (let i = 0; i < unseen.length; i += DELETE_CHUNK) await run.forget(unseen.slice(i, i + DELETE_CHUNK));
  }
  await run.deletionsCommitted();
  view.state = 'completed';
}

async function ensureDatasource(
  deps: RunnerDeps,
  record: ConnectorRecord,
  module: ConnectorModule,
): Promise<DatasourceRecord> {
  const wanted = (module.datasource?.object_definitions ?? []) as ObjectDefinition[];
  const existing = indexingState(deps).datasources.get(record.datasource);
  if (!existing) {
    try {
      await createDatasource(deps, {
        name: record.datasource,
        display_name: record.name,
        icon_base64: null,
        subs: [],
        object_definitions: wanted,
      });
      deps.log.info('connector created its datasource', { connector: record.id, datasource: record.datasource });
    } catch (err) {
      if (!(err instanceof ServiceError && err.kind === 'CONFLICT')) throw err;
    }
  } else {
    const missing = missingDefinitions(existing.record.object_definitions, wanted);
    if (missing.length > 0) {
      await updateDatasource(deps, record.datasource, {
        object_definitions: [...existing.record.object_definitions, ...missing],
      });
      deps.log.info('connector added property definitions to its datasource', {
        connector: record.id,
        datasource: record.datasource,
      });
    }
  }
  const ds = indexingState(deps).datasources.get(record.datasource)!;
  for (const email of module.datasourceUsers?.(record.settings) ?? []) {
    if (ds.users.has(email.trim().toLowerCase())) continue;
    try {
      await createUser(deps, record.datasource, { email });
    } catch (err) {
      if (!(err instanceof ServiceError && err.kind === 'CONFLICT')) throw err;
    }
  }
  return indexingState(deps).datasources.get(record.datasource)!.record;
}

/** The object definitions of `wanted` holding a property no definition of `have` declares (those properties only). */
function missingDefinitions(
  have: readonly ObjectDefinition[],
  wanted: readonly ObjectDefinition[],
): ObjectDefinition[] {
  const known = new Set(have.flatMap((d) => d.property_definitions.map((p) => p.name)));
  const names = new Set(have.map((d) => d.name));
  const out: ObjectDefinition[] = [];
  for (const def of wanted) {
    const props = def.property_definitions.filter((p) => !known.has(p.name));
    if (props.length === 0) continue;
    let name = def.name;
    for (let i = 2; names.has(name); i++) name = `${def.name}_${i}`;
    names.add(name);
    out.push({ name, property_definitions: props });
  }
  return out;
}

/** Digest of the settings: a change makes every item be read and pushed again. */
export function settingsDigest(settings: unknown): string {
  return createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16);
}
