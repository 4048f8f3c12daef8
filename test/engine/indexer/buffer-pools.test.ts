/**
 * Arrays the indexing buffers reuse across flushes (engine/indexer/buffer-pools.ts): log chunks
 * and the sort array come back for reuse and never overlap while taken, arrays of a released slab
 * are not handed out again, and a reused registry map holds exactly the old entries (the rest zero),
 * however dirty the spare it was made from.
 */
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  giveChunk,
  giveLog,
  growRegistryMap,
  LOG_CHUNK_INTS,
  releasePooledLogs,
  spareArrays,
  takeChunk,
  takeLog,
} from '../../../engine/indexer/buffer-pools.ts';

/** Byte range [start, end) of a view within its buffer. */
function range(a: Int32Array): [number, number] {
  return [a.byteOffset, a.byteOffset + a.byteLength];
}

function disjoint(arrays: Int32Array[]): boolean {
  for (let i = 0; i < arrays.length; i++) {
    for (let j = i + 1; j < arrays.length; j++) {
      if (arrays[i].buffer !== arrays[j].buffer) continue;
      const [a0, a1] = range(arrays[i]);
      const [b0, b1] = range(arrays[j]);
      if (a0 < b1 && b0 < a1) return false;
    }
  }
  return true;
}

describe('indexing buffer pools', () => {
  beforeEach(() => releasePooledLogs());

  it('hands out disjoint chunks and sort arrays while they are taken, and reuses what comes back', () => {
    const chunks = Array.from({ length: 20 }, () => takeChunk(100));
    const sorts = [takeLog(3 * LOG_CHUNK_INTS), takeLog(3 * LOG_CHUNK_INTS)];
    for (const c of chunks) assert.equal(c.length, LOG_CHUNK_INTS);
    for (const s of sorts) assert.ok(s.length >= 3 * LOG_CHUNK_INTS);
    assert.ok(disjoint([...chunks, ...sorts]), 'no two taken arrays share memory');
    // writing every taken array in full leaves the others intact
    [...chunks, ...sorts].forEach((a, i) => a.fill(i + 1));
    [...chunks, ...sorts].forEach((a, i) =>
      assert.ok(
        a.every((v) => v === i + 1),
        `array ${i}`,
      ),
    );
    giveChunk(chunks[3]);
    assert.equal(takeChunk(1), chunks[3], 'a given-back chunk is reused');
    giveLog(sorts[0]);
    const again = takeLog(2 * LOG_CHUNK_INTS);
    assert.equal(again.buffer, sorts[0].buffer, 'the given-back sort memory is reused');
    assert.ok(disjoint([again, sorts[1], ...chunks]));
  });

  it('gives a chunk larger than a standard one its own array', () => {
    const big = takeChunk(LOG_CHUNK_INTS + 1);
    assert.equal(big.length, LOG_CHUNK_INTS + 1);
    assert.equal(big.byteLength, big.buffer.byteLength);
  });

  it('does not hand out arrays of a released slab again', () => {
    const old = takeChunk(1);
    const oldSort = takeLog(1000);
    releasePooledLogs();
    giveChunk(old);
    giveLog(oldSort);
    const fresh = Array.from({ length: 20 }, () => takeChunk(1));
    assert.ok(
      fresh.every((c) => c.buffer !== old.buffer),
      'no chunk of the released slab',
    );
    assert.notEqual(takeLog(1000).buffer, oldSort.buffer);
  });

  it('makes registry maps with the old entries and zeros, from dirty spares too', () => {
    const dirty = new Int32Array(5000).fill(7);
    spareArrays(new Int32Array(16), [dirty]);
    const old = Int32Array.from([1, 2, 3]);
    const map = growRegistryMap(old, 4000);
    assert.ok(map.length >= 4000);
    assert.deepEqual([...map.subarray(0, 3)], [1, 2, 3]);
    assert.ok(
      map.subarray(3).every((v) => v === 0),
      'the rest is zero',
    );
  });
});
