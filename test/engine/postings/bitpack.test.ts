/**
 * Bit-packed blocks (postings doc gaps and freqs): every width from 0 to 32
 * and every block length up to 128 decode to the values packed, and the
 * decoder returns the offset just past the block (blocks are laid end to end).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packBlock, unpackBlock } from '../../../engine/postings/bitpack.ts';
import { ByteWriter } from '../../../engine/util/bytes.ts';
import { rng } from '../helpers/random.ts';

test('packed blocks of every width and length decode to their values, laid end to end', () => {
  const r = rng(31);
  for (let width = 0; width <= 31; width++) {
    for (const n of [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 127, 128]) {
      const blocks = [0, 1, 2].map(() => {
        const v = new Int32Array(n);
        for (let i = 0; i < n; i++) v[i] = width === 0 ? 0 : Math.floor(r() * 2 ** width);
        if (width > 0) v[int(n)] = 2 ** width - 1; // the largest value of the width is there
        return v;
      });
      const out = new ByteWriter();
      for (const b of blocks) packBlock(out, b, n);
      out.byte(0xab); // data after the last block must not be read into it
      const bytes = out.buf.subarray(0, out.length);
      let pos = 0;
      for (const b of blocks) {
        const dst = new Int32Array(128).fill(-7);
        pos = unpackBlock(bytes, pos, dst, n);
        assert.deepEqual([...dst.subarray(0, n)], [...b], `width ${width}, n ${n}`);
        assert.ok(
          dst.subarray(n).every((x) => x === -7),
          `width ${width}, n ${n}: nothing written past n`,
        );
      }
      assert.equal(bytes[pos], 0xab, `width ${width}, n ${n}: offset after the last block`);
    }
  }
  function int(n: number): number {
    return Math.floor(r() * n);
  }
});
