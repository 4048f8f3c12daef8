/**
 * Flush scratch pool (engine/util/scratch.ts): a buffer given back is handed out again for a
 * request of about its size (not for a much smaller one), requests are rounded up, views,
 * shared memory and small buffers are never pooled, the pool is bounded, and releaseScratch empties it.
 */
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { giveScratch, releaseScratch, scratchBytes, takeScratch } from '../../../engine/util/scratch.ts';

const KB = 1024;
const MB = 1024 * KB;

describe('flush scratch pool', () => {
  beforeEach(() => releaseScratch());

  it('reuses a given-back buffer for a request it fits, the shortest first', () => {
    const a = takeScratch(600 * KB);
    const b = takeScratch(3 * MB);
    assert.ok(a.length >= 600 * KB && a.length % (256 * KB) === 0, `rounded up: ${a.length}`);
    giveScratch(b);
    giveScratch(a);
    assert.equal(scratchBytes(), a.length + b.length);
    assert.equal(takeScratch(500 * KB), a, 'the shortest that fits');
    assert.equal(takeScratch(2 * MB), b);
    assert.equal(scratchBytes(), 0);
    assert.notEqual(takeScratch(2 * MB), b, 'a taken buffer is not handed out twice');
  });

  it('does not hand a large buffer to a much smaller request', () => {
    const big = takeScratch(8 * MB);
    giveScratch(big);
    const small = takeScratch(300 * KB);
    assert.notEqual(small.buffer, big.buffer);
    assert.equal(scratchBytes(), big.length, 'the large buffer stays pooled');
  });

  it('never pools views, shared memory, small buffers or the same buffer twice', () => {
    const whole = new Uint8Array(MB);
    giveScratch(whole.subarray(0, 512 * KB));
    giveScratch(new Uint8Array(new SharedArrayBuffer(MB)));
    giveScratch(new Uint8Array(16 * KB));
    assert.equal(scratchBytes(), 0);
    giveScratch(whole);
    giveScratch(whole);
    assert.equal(scratchBytes(), MB);
  });

  it('is bounded, and releaseScratch empties it', () => {
    for (let i = 0; i < 40; i++) giveScratch(new Uint8Array(4 * MB));
    assert.ok(scratchBytes() <= 48 * MB, `${scratchBytes()} bytes pooled`);
    assert.ok(scratchBytes() >= 40 * MB);
    releaseScratch();
    assert.equal(scratchBytes(), 0);
  });
});
