/**
 * The conversation store on disk: deleting and regenerating leave dead
 * records that a compaction removes once they are more than half the file
 * (the live conversations read the same before and after, also after a
 * reopen); the byte limit per account counts live records only.
 */
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConversationStore } from '../../../src/conversations/store.ts';
import { silentLogger } from '../../../src/log.ts';
import { tempDir } from '../../support/tmp.ts';

const open = (dir: string, extra: Partial<ConstructorParameters<typeof ConversationStore>[0]> = {}) =>
  new ConversationStore({ dir, log: silentLogger, now: () => Date.now(), ...extra });
const user = (content: string) => ({ role: 'user' as const, content });
const fileSize = async (dir: string) => (await stat(join(dir, (await readdir(dir))[0]))).size;

test('deleted conversations are compacted away once dead records pass half the file; the rest reads the same', async () => {
  const dir = await tempDir('conv-compact-');
  const store = open(dir, { compactMinDeadBytes: 1024 });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const c = await store.create('acc_a', { title: `t${i}`, messages: [user(`question ${i} ${'x'.repeat(500)}`)] });
    await store.append('acc_a', c.id, { messages: [{ role: 'assistant', content: `answer ${i}` }] });
    ids.push(c.id);
  }
  await store.rename('acc_a', ids[9], 'renamed');
  await store.append('acc_a', ids[8], { messages: [{ role: 'assistant', content: 'regenerated' }], replace_from: 1 });
  const keep = await Promise.all(ids.slice(7).map((id) => store.get('acc_a', id)));
  const full = await fileSize(dir);
  for (const id of ids.slice(0, 4)) await store.remove('acc_a', id);
  assert.ok((await fileSize(dir)) >= full, 'under half dead: no compaction yet');
  for (const id of ids.slice(4, 7)) await store.remove('acc_a', id);
  const compacted = await fileSize(dir);
  assert.ok(compacted < full / 2, `compacted to ${compacted} of ${full} bytes`);
  assert.deepEqual(await Promise.all(ids.slice(7).map((id) => store.get('acc_a', id))), keep);
  // Appends go on after a compaction, and a reopened store reads the same.
  await store.append('acc_a', ids[9], { messages: [user('after')] });
  await store.close();
  const reopened = open(dir);
  const list = await reopened.list('acc_a');
  assert.deepEqual(list.map((c) => c.id).sort(), ids.slice(7).sort());
  const last = await reopened.get('acc_a', ids[9]);
  assert.equal(last.title, 'renamed');
  assert.deepEqual(
    last.messages.map((m) => m.content),
    [keep[2].messages[0].content, 'answer 9', 'after'],
  );
  assert.deepEqual((await reopened.get('acc_a', ids[8])).messages, keep[1].messages);
  await reopened.close();
});

test('the byte limit counts live records: a full account saves again after a delete', async () => {
  const dir = await tempDir('conv-limit-');
  const store = open(dir, { maxAccountBytes: 8000 });
  const first = await store.create('acc_b', { messages: [user('x'.repeat(3000))] });
  await store.create('acc_b', { messages: [user('y'.repeat(3000))] });
  await assert.rejects(store.create('acc_b', { messages: [user('z'.repeat(3000))] }), (err: any) => {
    assert.equal(err.status, 409);
    assert.match(err.message, /at most 8000 bytes/);
    return true;
  });
  await store.remove('acc_b', first.id);
  await store.create('acc_b', { messages: [user('z'.repeat(3000))] });
  // Another account has its own budget.
  await store.create('acc_c', { messages: [user('z'.repeat(3000))] });
  await store.close();
});

test('more accounts than are kept open: closed ones reopen from their files with everything in them', async () => {
  const dir = await tempDir('conv-many-');
  const store = open(dir);
  const accounts = Array.from({ length: 80 }, (_, i) => `acc_${i}`);
  const ids = await Promise.all(accounts.map(async (a) => (await store.create(a, { messages: [user(a)] })).id));
  // Interleaved appends while older accounts are being closed and reopened.
  await Promise.all(accounts.map((a, i) => store.append(a, ids[i], { messages: [user(`${a} again`)] })));
  for (const [i, a] of accounts.entries())
    assert.deepEqual(
      (await store.get(a, ids[i])).messages.map((m) => m.content),
      [a, `${a} again`],
    );
  await store.close();
});
