/**
 * The reused-context inflater gives exactly what inflateRawSync gives: the same bytes for
 * blocks of every size (including blocks larger than its output buffer), the same errors for
 * damaged or truncated input, and correct output again after an error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { inflateBlock } from '../../../engine/store/inflater.ts';

function text(bytes: number, seed: number): Uint8Array {
  const words = ['search', 'Urlaubsantrag', 'index', 'ß', 'segment', 'posting', '😀', 'commit', 'merge', 'Kündigung'];
  let x = seed;
  const parts: string[] = [];
  for (let n = 0; n < bytes;) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const w = `${words[x % words.length]}${x % 7 === 0 ? '\n' : ' '}`;
    parts.push(w);
    n += Buffer.byteLength(w);
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

describe('inflateBlock', () => {
  it('inflates blocks of every size like inflateRawSync, large ones included', () => {
    for (const [i, size] of [0, 1, 100, 8_192, 16_000, 65_535, 65_536, 70_000, 300_000, 100, 5_000_000].entries()) {
      const raw = text(size, i + 1);
      for (const level of [1, 6]) {
        const packed = deflateRawSync(raw, { level });
        const got = Buffer.from(inflateBlock(packed));
        assert.equal(got.length, raw.length, `size ${size}`);
        assert.ok(got.equals(Buffer.from(raw)), `size ${size}, level ${level}`);
      }
    }
  });

  it('returns a view that the next call overwrites (callers copy or decode first)', () => {
    const a = deflateRawSync(Buffer.from('first block'));
    const b = deflateRawSync(Buffer.from('other bytes'));
    const first = inflateBlock(a);
    assert.equal(Buffer.from(first).toString(), 'first block');
    inflateBlock(b);
    assert.notEqual(Buffer.from(first).toString(), 'first block');
  });

  it('throws like inflateRawSync on damaged and truncated input, and works again afterwards', () => {
    const raw = text(20_000, 7);
    const packed = deflateRawSync(raw);
    const damaged = Buffer.from(packed);
    damaged[0] = 0xff; // reserved block type 3
    const truncated = packed.subarray(0, packed.length >> 1);
    for (const bad of [damaged, truncated, Buffer.from([0xff, 0xff, 0xff])]) {
      let expected: unknown = null;
      try {
        inflateRawSync(bad);
      } catch (e) {
        expected = e;
      }
      assert.ok(expected instanceof Error, 'inflateRawSync rejects the input');
      assert.throws(
        () => inflateBlock(bad),
        (e: unknown) => e instanceof Error && e.message === (expected as Error).message,
      );
      assert.ok(Buffer.from(inflateBlock(packed)).equals(Buffer.from(raw)));
    }
  });
});
