/**
 * Child process of the conversations kill -9 test: a ConversationStore in the
 * directory argv[2] (small compaction threshold), with four workers that each
 * create a conversation and append numbered messages to it, and in between
 * create and delete a large throwaway conversation (dead records, so the file
 * is compacted often). Prints `ready` after opening and `ack <id> <n>` once
 * message n of conversation id is acknowledged. The parent kills it with SIGKILL.
 */
import { ConversationStore } from '../../../../src/conversations/store.ts';
import { silentLogger } from '../../../../src/log.ts';

const store = new ConversationStore({
  dir: process.argv[2],
  log: silentLogger,
  now: () => Date.now(),
  compactMinDeadBytes: 4096,
});
const ACCOUNT = 'acc_kill9';
await store.list(ACCOUNT);
process.stdout.write('ready\n');

async function worker(): Promise<void> {
  for (;;) {
    const c = await store.create(ACCOUNT, { title: 'kept', messages: [{ role: 'user', content: '0' }] });
    process.stdout.write(`ack ${c.id} 0\n`);
    for (let n = 1; n <= 150; n++) {
      await store.append(ACCOUNT, c.id, { messages: [{ role: 'assistant', content: String(n) }] });
      process.stdout.write(`ack ${c.id} ${n}\n`);
      if (n % 8 === 0) {
        const junk = await store.create(ACCOUNT, { messages: [{ role: 'user', content: 'j'.repeat(3000) }] });
        await store.remove(ACCOUNT, junk.id);
      }
    }
  }
}
for (let i = 0; i < 4; i++)
  worker().catch((err) => {
    process.stderr.write(`worker failed: ${String(err)}\n`);
    process.exit(3);
  });
