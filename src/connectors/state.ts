/**
 * The `connectors` state part: each connector's configuration (type, target datasource,
 * schedule, settings, sealed credentials, paused flag), persisted with the control-plane
 * state. Changed only through `connectors.<verb>` events; `apply` trusts them
 * (src/connectors/connectors.ts validates first). Run results and item state live in the
 * connector's own files (item-state.ts, run-log.ts), not here.
 */
import type { StatePart, StateStore } from '../state/store.ts';
import type { SealedCredentials } from './secrets.ts';

export interface ConnectorRecord {
  id: string;
  name: string;
  type: string;
  datasource: string;
  /** Minutes between scheduled runs; null: only on demand. */
  interval_minutes: number | null;
  /** The type's validated settings, as given. */
  settings: Record<string, unknown>;
  /** Sealed credentials, or null. */
  credentials: SealedCredentials | null;
  /** Names of the credential fields (the masked view), null without credentials. */
  credential_fields: string[] | null;
  paused: boolean;
  created_at: string;
  updated_at: string;
}

export interface ConnectorsState {
  connectors: Map<string, ConnectorRecord>;
}

export type ConnectorsEvent =
  | { type: 'connectors.connector_saved'; connector: ConnectorRecord }
  | { type: 'connectors.connector_deleted'; id: string };

const copy = (c: ConnectorRecord): ConnectorRecord => structuredClone(c);

export const connectorsPart: StatePart<ConnectorsState, ConnectorsEvent> = {
  name: 'connectors',
  create: () => ({ connectors: new Map() }),
  apply(s, e) {
    if (e.type === 'connectors.connector_saved') s.connectors.set(e.connector.id, copy(e.connector));
    else if (e.type === 'connectors.connector_deleted') s.connectors.delete(e.id);
  },
  toJSON: (s) => ({ connectors: [...s.connectors.values()] }),
  fromJSON(json) {
    const s: ConnectorsState = { connectors: new Map() };
    for (const c of (json as { connectors?: ConnectorRecord[] }).connectors ?? []) s.connectors.set(c.id, copy(c));
    return s;
  },
};

export function commitConnectors(state: StateStore, event: ConnectorsEvent): Promise<void> {
  return state.commit(event);
}

export const connectorRecords = (state: StateStore): Map<string, ConnectorRecord> =>
  state.get(connectorsPart).connectors;
