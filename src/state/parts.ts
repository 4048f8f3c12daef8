/**
 * Every state part of the service, in one list: `openState` registers these,
 * and tests open a StateStore over a MemoryJournal with the same list.
 */
import { accountsPart } from '../accounts/state.ts';
import { agentsPart } from '../agents/state.ts';
import { indexingPart } from '../controlplane/state.ts';
import type { StatePart } from './store.ts';

export const stateParts: StatePart<any, any>[] = [accountsPart, indexingPart, agentsPart];
