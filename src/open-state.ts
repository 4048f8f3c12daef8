/**
 * Open the durable control-plane state: an FsJournal under
 * `<DATA_DIR>/state` (see src/storage/fs-journal.ts for the file layout),
 * replayed into a StateStore with every state part of the service. The one
 * place that knows every part (accounts, control plane, agents, sessions, connectors); tests open a
 * StateStore over a MemoryJournal with the same list.
 */
import { join } from 'node:path';
import { accountsPart } from './accounts/state.ts';
import { agentsPart } from './agents/state.ts';
import { connectorsPart } from './connectors/state.ts';
import type { Config } from './config.ts';
import { indexingPart } from './controlplane/state.ts';
import type { Logger } from './log.ts';
import { sessionsPart } from './sessions/state.ts';
import { MemoryJournal, StateStore, type StatePart } from './state/store.ts';
import { FsJournal } from './storage/fs-journal.ts';

/** Every state part of the service. */
export const stateParts: StatePart<any, any>[] = [accountsPart, indexingPart, agentsPart, sessionsPart, connectorsPart];

/** Directory of the state files inside the data directory. */
export const stateDir = (dataDir: string): string => join(dataDir, 'state');

export async function openState(
  config: Pick<Config, 'dataDir' | 'stateCompactBytes'>,
  log: Logger,
): Promise<StateStore> {
  const journal = new FsJournal({
    dir: stateDir(config.dataDir),
    compactBytes: config.stateCompactBytes,
    log: log.child({ component: 'state' }),
  });
  return StateStore.open(journal, stateParts);
}

/** A StateStore with every part over a MemoryJournal (tests; nothing survives). */
export function openMemoryState(): Promise<StateStore> {
  return StateStore.open(new MemoryJournal(), stateParts);
}
