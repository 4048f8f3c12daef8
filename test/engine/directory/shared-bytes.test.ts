/** Segment images in shared memory: allocation, copies, and the release of dropped images (a full GC on demand). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isShared, releaseSharedMemory, sharedBytes, toShared } from '../../../engine/directory/shared-bytes.ts';

test('sharedBytes and toShared give SharedArrayBuffer memory; toShared copies only what is not shared', () => {
  const a = sharedBytes(16);
  assert.ok(isShared(a) && a.buffer instanceof SharedArrayBuffer && a.length === 16 && a.every((b) => b === 0));
  assert.equal(toShared(a), a);
  const plain = Uint8Array.from([1, 2, 3]);
  const copy = toShared(plain);
  assert.ok(isShared(copy) && !isShared(plain));
  assert.deepEqual([...copy], [1, 2, 3]);
});

test('releaseSharedMemory collects images nothing references any more', async () => {
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  (() => {
    for (let i = 0; i < 4; i++) registry.register(sharedBytes(1 << 20), i);
  })();
  releaseSharedMemory();
  // finalization callbacks run in a later task after the collection
  for (let i = 0; i < 50 && collected < 4; i++) await new Promise((r) => setImmediate(r));
  assert.equal(collected, 4);
});
