/**
 * Connectors, domain side of the admin API: create, list, get, update, delete, pause, resume,
 * run now and status. A connector's settings are checked by its type's schema; credentials are
 * sealed (secrets.ts) before anything is stored and answered only masked. One connector per
 * datasource (two would file documents under the same ids). Deleting a connector stops its run
 * and removes its item state and run records; its documents stay in the datasource (delete the
 * datasource to remove them).
 */
import * as v from 'valibot';
import type { Config } from '../config.ts';
import { conflict, notFound, RequestValidationError, ServiceError } from '../errors.ts';
import { toValidationItems } from '../validation/pydantic.ts';
import type { StateStore } from '../state/store.ts';
import { CONNECTOR_ID, newConnectorId } from './ids.ts';
import { moduleOf, typeListing } from './registry.ts';
import type { RunView } from './run-log.ts';
import type { ConnectorScheduler, ConnectorStatus } from './scheduler.ts';
import type { CreateConnectorInput, UpdateConnectorInput } from './schemas.ts';
import { CredentialsError, maskCredentials, sealCredentials, type SealedCredentials } from './secrets.ts';
import { commitConnectors, connectorRecords, type ConnectorRecord } from './state.ts';
import type { ConnectorModule } from './types.ts';

export interface ConnectorDeps {
  state: StateStore;
  now: () => number;
  config: Pick<Config, 'connectorSecret'>;
  scheduler: ConnectorScheduler;
}

export interface ConnectorView extends Omit<ConnectorRecord, 'credentials' | 'credential_fields'> {
  category: string;
  credentials: Record<string, string> | null;
  status: ConnectorStatus;
}

export function view(deps: ConnectorDeps, r: ConnectorRecord): ConnectorView {
  const { credentials: _sealed, credential_fields, ...rest } = r;
  return {
    ...rest,
    category: moduleOf(r.type)?.category ?? 'other',
    credentials: maskCredentials(credential_fields),
    status: deps.scheduler.status(r),
  };
}

export function requireConnector(deps: Pick<ConnectorDeps, 'state'>, id: string): ConnectorRecord {
  const r = CONNECTOR_ID.test(id) ? connectorRecords(deps.state).get(id) : undefined;
  if (!r) throw notFound(`Connector ${id} does not exist`);
  return r;
}

export const listConnectorTypes = () => ({ types: typeListing() });

export function listConnectors(deps: ConnectorDeps): { connectors: ConnectorView[] } {
  const all = [...connectorRecords(deps.state).values()].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
  return { connectors: all.map((r) => view(deps, r)) };
}

export const getConnector = (deps: ConnectorDeps, id: string): ConnectorView => view(deps, requireConnector(deps, id));

export const connectorStatus = (deps: ConnectorDeps, id: string): ConnectorStatus =>
  deps.scheduler.status(requireConnector(deps, id));

export async function createConnector(deps: ConnectorDeps, body: CreateConnectorInput): Promise<ConnectorView> {
  const module = moduleOf(body.type)!;
  const settings = checkSettings(module, body.settings);
  const creds = checkCredentials(module, body.credentials);
  assertDatasourceFree(deps, body.datasource);
  const id = newConnectorId();
  const sealed = creds ? await seal(deps, id, creds) : null;
  assertDatasourceFree(deps, body.datasource);
  const at = new Date(deps.now()).toISOString();
  const record: ConnectorRecord = {
    id,
    name: body.name,
    type: body.type,
    datasource: body.datasource,
    interval_minutes: body.interval_minutes,
    settings,
    credentials: sealed,
    credential_fields: creds ? Object.keys(creds) : null,
    paused: body.paused,
    created_at: at,
    updated_at: at,
  };
  await commitConnectors(deps.state, { type: 'connectors.connector_saved', connector: record });
  await deps.scheduler.changed(id);
  return view(deps, record);
}

export async function updateConnector(
  deps: ConnectorDeps,
  id: string,
  body: UpdateConnectorInput,
): Promise<ConnectorView> {
  const current = requireConnector(deps, id);
  const module = moduleOf(current.type)!;
  const settings = body.settings === undefined ? current.settings : checkSettings(module, body.settings);
  const creds = body.credentials === undefined ? undefined : checkCredentials(module, body.credentials);
  if (body.datasource !== undefined && body.datasource !== current.datasource)
    assertDatasourceFree(deps, body.datasource);
  let sealed: { credentials: SealedCredentials | null; credential_fields: string[] | null } | undefined;
  if (creds !== undefined)
    sealed = creds
      ? { credentials: await seal(deps, id, creds), credential_fields: Object.keys(creds) }
      : { credentials: null, credential_fields: null };
  const latest = requireConnector(deps, id);
  if (body.datasource !== undefined && body.datasource !== latest.datasource)
    assertDatasourceFree(deps, body.datasource);
  const record: ConnectorRecord = {
    ...latest,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.datasource !== undefined ? { datasource: body.datasource } : {}),
    ...(body.interval_minutes !== undefined ? { interval_minutes: body.interval_minutes } : {}),
    settings,
    ...(sealed ?? {}),
    updated_at: new Date(deps.now()).toISOString(),
  };
  await commitConnectors(deps.state, { type: 'connectors.connector_saved', connector: record });
  await deps.scheduler.changed(id);
  return view(deps, record);
}

export async function deleteConnector(deps: ConnectorDeps, id: string): Promise<{ id: string; deleted: true }> {
  requireConnector(deps, id);
  await deps.scheduler.remove(id);
  if (connectorRecords(deps.state).has(id))
    await commitConnectors(deps.state, { type: 'connectors.connector_deleted', id });
  return { id, deleted: true };
}

export async function pauseConnector(deps: ConnectorDeps, id: string): Promise<ConnectorView> {
  const record = await setPaused(deps, id, true);
  deps.scheduler.pause(id);
  return view(deps, record);
}

/** Resume scheduling and start a run at once (it skips what earlier runs recorded). */
export async function resumeConnector(deps: ConnectorDeps, id: string): Promise<ConnectorView> {
  const record = await setPaused(deps, id, false);
  await deps.scheduler.changed(id);
  if (deps.scheduler.status(record).state !== 'running') await deps.scheduler.runNow(record, 'resume');
  return view(deps, record);
}

/** Start a run now: 409 while one runs or while the connector is paused. */
export async function runConnector(deps: ConnectorDeps, id: string): Promise<{ id: string; run: RunView }> {
  const record = requireConnector(deps, id);
  if (record.paused) throw conflict(`Connector ${id} is paused; resume it to run it`);
  const { view: run } = await deps.scheduler.runNow(record, 'manual');
  return { id, run };
}

async function setPaused(deps: ConnectorDeps, id: string, paused: boolean): Promise<ConnectorRecord> {
  const current = requireConnector(deps, id);
  if (current.paused === paused) return current;
  const record = { ...current, paused, updated_at: new Date(deps.now()).toISOString() };
  await commitConnectors(deps.state, { type: 'connectors.connector_saved', connector: record });
  return record;
}

function assertDatasourceFree(deps: ConnectorDeps, datasource: string): void {
  for (const r of connectorRecords(deps.state).values())
    if (r.datasource === datasource)
      throw conflict(`Datasource '${datasource}' is already the target of connector ${r.id} ('${r.name}')`);
}

/** The type's settings, validated (422 under ["body", "settings", ...]). */
function checkSettings(module: ConnectorModule, settings: Record<string, unknown>): Record<string, unknown> {
  const result = v.safeParse(module.settings, settings, { abortEarly: false });
  if (result.success) return result.output as Record<string, unknown>;
  throw new RequestValidationError(
    toValidationItems(result.issues, 'body').map((it) => ({ ...it, loc: ['body', 'settings', ...it.loc.slice(1)] })),
  );
}

/** The type's credentials, validated; a 422 says where and why, never echoing a value. */
function checkCredentials(
  module: ConnectorModule,
  credentials: Record<string, unknown> | null,
): Record<string, unknown> | null {
  if (credentials === null || Object.keys(credentials).length === 0) return null;
  const where = ['body', 'credentials'];
  if (!module.credentials)
    throw new RequestValidationError([
      { type: 'value_error', loc: where, msg: `Value error, connectors of type ${module.type} take no credentials` },
    ]);
  const result = v.safeParse(module.credentials, credentials, { abortEarly: false });
  if (result.success) return result.output as Record<string, unknown>;
  throw new RequestValidationError(
    toValidationItems(result.issues, 'body').map(({ input: _hidden, ctx: _ctx, ...it }) => ({
      ...it,
      loc: [...where, ...it.loc.slice(1)],
    })),
  );
}

async function seal(deps: ConnectorDeps, id: string, creds: Record<string, unknown>): Promise<SealedCredentials> {
  try {
    return await sealCredentials(deps.config.connectorSecret, id, creds);
  } catch (err) {
    if (err instanceof CredentialsError) throw new ServiceError('UNAVAILABLE', err.message);
    throw err;
  }
}
