/**
 * The merge thread: merges segments given as file images on a worker, gives the same segment as
 * merging in-process, and starts a new worker for a merge after the idle one has exited.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory } from '../../../engine/index.ts';
import { MergeThread } from '../../../engine/merge/merge-thread.ts';
import { mergeSegments } from '../../../engine/merge/merger.ts';
import { SegmentCore } from '../../../engine/segment/segment-reader.ts';
import { concatChunks } from '../../../engine/segment/segment-writer.ts';
import { SCHEMA, makeDoc } from '../helpers/storage-fixtures.ts';
import { within } from '../../support/wait.ts';

async function sources() {
  const index = await openIndex({
    directory: new MemoryDirectory(),
    schema: SCHEMA,
    merge: false,
    ramBufferBytes: 4096,
  });
  for (let i = 0; i < 120; i++) index.writer.add(makeDoc(i));
  for (let i = 0; i < 120; i += 5) index.writer.delete(`k${i}`);
  await index.writer.commit();
  const frozen = index.writer.segments.map((s) => ({ core: s.core, bits: s.bits.slice() }));
  return { index, frozen };
}

describe('merge thread', () => {
  it('merges like the in-process merger, and again after its idle worker exited', async () => {
    const { index, frozen } = await sources();
    assert.ok(frozen.length > 1, 'several segments');
    const local = await mergeSegments('m1', frozen);
    const expected = concatChunks(local.segment.chunks, local.segment.size);
    let idleExit!: () => void;
    const exited = new Promise<void>((resolve) => (idleExit = resolve));
    const thread = new MergeThread(30, idleExit);
    try {
      const first = thread.merge('m1', frozen);
      assert.ok(first, 'a worker can run');
      const a = await first;
      assert.deepEqual(a.bytes, expected);
      assert.deepEqual(a.docMaps, local.docMaps);
      const merged = new SegmentCore(a.bytes, 'm1.seg');
      assert.equal(merged.maxDoc, 120 - 24);
      // The idle timer and the worker are unref'd: the deadline's timer keeps the test alive meanwhile.
      await within(exited, 10_000, 'the idle worker exits');
      const b = await thread.merge('m1', frozen)!;
      assert.deepEqual(b.bytes, expected);
    } finally {
      await thread.close();
      await index.close();
    }
  });

  it('rejects a pending merge with CLOSED when closed', async () => {
    const { index, frozen } = await sources();
    const thread = new MergeThread();
    const pending = thread.merge('m2', frozen);
    assert.ok(pending);
    const rejected = assert.rejects(pending, (e: { code?: string }) => e.code === 'CLOSED');
    await thread.close();
    await rejected;
    assert.equal(thread.merge('m3', frozen), null, 'no thread after close');
    await index.close();
  });
});
