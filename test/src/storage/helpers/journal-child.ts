/**
 * Child process of the kill -9 test: opens a StateStore over an FsJournal in
 * the directory given as argv[2] (small compaction threshold, so it compacts
 * often), then commits `seq.add` events with consecutive ids forever, keeping
 * several in flight (group commit), and prints `ack <id>` for each one once it
 * is durable. Prints `ready <next id>` after replay. The parent kills it with SIGKILL.
 */
import { silentLogger } from '../../../../src/log.ts';
import { FsJournal } from '../../../../src/storage/fs-journal.ts';
import { StateStore } from '../../../../src/state/store.ts';
import { seqPart, type SeqEvent } from './seq-part.ts';

const dir = process.argv[2];
const IN_FLIGHT = 8;

const store = await StateStore.open(new FsJournal({ dir, compactBytes: 16 * 1024, log: silentLogger }), [seqPart]);
let next = store.get(seqPart).next;
process.stdout.write(`ready ${next}\n`);

function one(): void {
  const id = next++;
  store.commit({ type: 'seq.add', id } as SeqEvent).then(
    () => {
      process.stdout.write(`ack ${id}\n`);
      one();
    },
    (err) => {
      process.stderr.write(`append failed: ${String(err)}\n`);
      process.exit(3);
    },
  );
}
for (let i = 0; i < IN_FLIGHT; i++) one();
