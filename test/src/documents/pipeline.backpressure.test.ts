/** The pipeline bounds the bytes of unapplied operations: pushes wait for capacity instead of growing memory. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { IndexingPipeline } from '../../../src/documents/pipeline.ts';
import type { QueueOp } from '../../../src/documents/queue.ts';
import { StatusRegistry } from '../../../src/documents/status.ts';
import { DOCUMENT_SCHEMA } from '../../../src/documents/index-schema.ts';
import { nextTurn, waitFor } from '../../support/wait.ts';

const op = (seq: number): QueueOp => ({
  op: 'upsert',
  seq,
  doc: {
    datasource: 'wiki',
    id: `d${seq}`,
    title: `t${seq}`,
    mime_type: 'text/plain',
    text_content: 'hello world',
    binary_base64: null,
    file_type: 'wiki',
    path_preview: null,
    path: null,
    author: null,
    last_modified: null,
    sub: null,
    sub_sub: null,
    tokens: ['wiki|*'],
    properties: [],
    received_at: 0,
  },
});

/** A pipeline whose extraction waits for `open()` (extraction slower than the pushes). */
async function gatedPipeline(limits: { maxPendingBytes?: number; maxPendingMs?: number; lookahead?: number }) {
  const index = await openIndex({ directory: new MemoryDirectory(), schema: DOCUMENT_SCHEMA, merge: false });
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const pipeline = new IndexingPipeline(
    {
      index,
      statuses: new StatusRegistry(),
      log: silentLogger,
      now: () => 0,
      ...limits,
      readBody: async (d) => {
        await gate;
        return { text: { body: d.text_content ?? '' }, suffix: 'txt', mediaFileType: 'txt' };
      },
    },
    0,
  );
  return { index, pipeline, open };
}

test('capacity() holds pushes while unapplied bytes exceed the bound, and releases them as the pipeline drains', async () => {
  const { index, pipeline, open } = await gatedPipeline({ maxPendingBytes: 3000, lookahead: 1 });
  await pipeline.capacity(); // empty: room
  for (let seq = 1; seq <= 4; seq++) pipeline.submit(op(seq), Promise.resolve(), 1000);
  let released = false;
  const waiting = pipeline.capacity().then(() => (released = true));
  await nextTurn(); // anything not gated would have run by now
  assert.equal(released, false, 'a push waits while 4000 bytes are pending over a 3000 byte bound');
  assert.equal(pipeline.backlog, 4);
  open();
  await waiting;
  assert.equal(released, true);
  await pipeline.drained();
  assert.equal(pipeline.backlog, 0);
  assert.equal(pipeline.appliedSeq, 4);
  await index.writer.commit();
  assert.equal(index.reader.searcher().numDocs, 4);
  assert.deepEqual(index.reader.commitData, { queueSeq: 4 });
  await index.close();
});

test('operations whose append failed are not applied', async () => {
  const index = await openIndex({ directory: new MemoryDirectory(), schema: DOCUMENT_SCHEMA, merge: false });
  const pipeline = new IndexingPipeline(
    {
      index,
      statuses: new StatusRegistry(),
      log: silentLogger,
      now: () => 0,
      readBody: async (d) => ({ text: { body: d.text_content ?? '' }, suffix: 'txt', mediaFileType: 'txt' }),
    },
    0,
  );
  pipeline.submit(op(1), Promise.resolve(), 10);
  pipeline.submit(op(2), Promise.reject(new Error('disk full')), 10);
  pipeline.submit(op(3), Promise.resolve(), 10);
  await pipeline.drained();
  await index.writer.commit();
  const s = index.reader.searcher();
  assert.ok(s.get('wiki:d1'));
  assert.equal(s.get('wiki:d2'), null);
  assert.ok(s.get('wiki:d3'));
  await index.close();
});

test(
  'pushes also wait while the backlog would take longer than maxPendingMs to apply, and are let in in order',
  { timeout: 10_000 },
  async () => {
    // any backlog is too much; the byte bound (default) is far away
    const { index, pipeline, open } = await gatedPipeline({ maxPendingMs: 1e-9 });
    await pipeline.capacity(); // nothing pending: room
    pipeline.submitMany([op(1), op(2)], Promise.resolve(), [10, 10]);
    const order: string[] = [];
    // The first push let in submits at once (while the pipeline finishes its run): that work is applied too.
    const a = pipeline.capacity().then(() => {
      order.push('a');
      pipeline.submit(op(3), Promise.resolve(), 10);
    });
    const b = pipeline.capacity().then(() => order.push('b'));
    await nextTurn();
    assert.deepEqual(order, [], 'both wait while two small operations are pending');
    open();
    await Promise.all([a, b]);
    assert.deepEqual(order, ['a', 'b']);
    await waitFor(() => pipeline.appliedSeq === 3, 'operation 3 applied');
    pipeline.submit(op(4), Promise.resolve(), 10);
    await waitFor(() => pipeline.appliedSeq === 4, 'operation 4 applied'); // the pipeline keeps running after a push let in at the end of a run
    await pipeline.drained();
    assert.equal(pipeline.backlog, 0);
    await index.close();
  },
);
