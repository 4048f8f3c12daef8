/**
 * Open the durable control-plane state: an FsJournal under
 * `<DATA_DIR>/state` (see src/storage/fs-journal.ts for the file layout),
 * replayed into a StateStore with every registered part.
 */
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { FsJournal } from '../storage/fs-journal.ts';
import { stateParts } from './parts.ts';
import { MemoryJournal, StateStore } from './store.ts';

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
