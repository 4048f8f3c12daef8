/**
 * A state part for the kill -9 test: events carry consecutive ids; the state
 * counts them and records any id that does not follow its predecessor, so a
 * lost, duplicated or reordered event shows up after replay.
 */
import type { StatePart } from '../../../../src/state/store.ts';

export interface SeqState {
  next: number;
  violations: string[];
}
export type SeqEvent = { type: 'seq.add'; id: number };

export const seqPart: StatePart<SeqState, SeqEvent> = {
  name: 'seq',
  create: () => ({ next: 0, violations: [] }),
  apply(s, e) {
    if (e.id !== s.next) s.violations.push(`expected ${s.next}, got ${e.id}`);
    s.next = e.id + 1;
  },
  toJSON: (s) => ({ next: s.next, violations: s.violations }),
  fromJSON: (j) => ({ ...(j as SeqState) }),
};
