/** segmentLengths: per (fields list, segment) the norms, weighted doc lengths and minimum lengths the combined scorer uses, computed once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SegmentReader } from '../../../engine/segment/types.ts';
import { NORM_TABLE } from '../../../engine/similarity/norms.ts';
import { segmentLengths } from '../../../engine/scorer/field-lengths.ts';
import { int, rng } from '../helpers/random.ts';

function readerWith(norms: Record<string, Uint8Array>): SegmentReader {
  return { norms: (field: string) => norms[field] ?? null } as unknown as SegmentReader;
}

test('matches the lengths and minima computed directly, and is the same object for the same fields and segment', () => {
  const r = rng(5);
  for (let round = 0; round < 50; round++) {
    const maxDoc = int(r, 1, 300);
    const names = ['title', 'body', 'meta'].slice(0, int(r, 1, 3));
    const norms: Record<string, Uint8Array> = {};
    for (const n of names) if (r() < 0.8) norms[n] = Uint8Array.from({ length: maxDoc }, () => int(r, 0, 255));
    const fields = names.map((name) => ({ name, boost: [0.5, 1, 2][int(r, 0, 2)] }));
    const reader = readerWith(norms);
    const got = segmentLengths(fields, reader);
    assert.equal(segmentLengths(fields, reader), got, 'memoised');
    assert.deepEqual(
      got.norms,
      fields.map((f) => norms[f.name] ?? null),
    );
    const mins = fields.map((f) => {
      const n = norms[f.name];
      if (!n) return 0;
      let m = Infinity;
      for (const b of n) m = Math.min(m, NORM_TABLE[b]);
      return f.boost * m;
    });
    assert.deepEqual([...got.mins], mins);
    assert.equal(
      got.minTotal,
      mins.reduce((a, b) => a + b, 0),
    );
    if (Object.keys(norms).length === 0) assert.equal(got.lengths, null);
    else {
      for (let d = 0; d < maxDoc; d++) {
        let dl = 0;
        for (const f of fields) if (norms[f.name]) dl += f.boost * NORM_TABLE[norms[f.name][d]];
        assert.equal(got.lengths![d], dl, `doc ${d}`);
      }
    }
  }
});
