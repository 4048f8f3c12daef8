/** Near-duplicates: the SimHash band index, duplicatesOf and collapsed searches. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hammingDistance, nearDuplicatesIn } from '../../../engine/duplicates/near-duplicates.ts';
import type { SegmentReader } from '../../../engine/segment/types.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';
import { int, rng } from '../helpers/random.ts';

function randomSig(r: () => number): bigint {
  return (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));
}

test('band index finds exactly the signatures within 3 bits', () => {
  const r = rng(7);
  const bases = Array.from({ length: 20 }, () => randomSig(r));
  const sigs: bigint[] = [];
  for (let i = 0; i < 2000; i++) {
    let s = bases[int(r, 0, bases.length - 1)];
    for (let f = int(r, 0, 6); f > 0; f--) s ^= 1n << BigInt(int(r, 0, 63));
    sigs.push(s);
  }
  const reader = { maxDoc: sigs.length, signature: (d: number) => sigs[d] } as unknown as SegmentReader;
  for (let q = 0; q < 50; q++) {
    const probe = sigs[int(r, 0, sigs.length - 1)];
    const want = sigs.map((s, d) => ({ doc: d, distance: hammingDistance(s, probe) })).filter((x) => x.distance <= 3);
    want.sort((a, b) => a.distance - b.distance || a.doc - b.doc);
    assert.deepEqual(nearDuplicatesIn(reader, probe), want);
  }
  assert.equal(hammingDistance(0n, (1n << 64n) - 1n), 64);
});

const long = (extra: string) =>
  `Quarterly budget planning for the research department covers salaries, equipment, travel, conferences, ` +
  `software licences, laboratory supplies, maintenance contracts and external consultants. ${extra} ` +
  `Every team lead submits estimates before the deadline and the finance office consolidates them into one plan.`;

test('duplicatesOf and collapseDuplicates group identical and near-identical docs', async () => {
  const index = await indexOf(
    [
      doc('orig', 'Budget plan', long('')),
      doc('copy', 'Budget plan', long('')),
      doc(
        'other',
        'Holiday policy',
        'Employees receive thirty days of paid leave per year, planned with their manager.',
      ),
    ],
    [doc('copy2', 'Budget plan', long(''))],
  );
  const s = index.reader.searcher();
  assert.deepEqual(
    s.duplicatesOf('orig', { limit: 10 }).map((h) => h.key),
    ['copy', 'copy2'],
  );
  assert.deepEqual(
    s.duplicatesOf('orig', { limit: 1 }).map((h) => h.key),
    ['copy'],
  );
  assert.deepEqual(s.duplicatesOf('missing', { limit: 10 }), []);
  const res = s.search({ query: 'budget leave', language: 'en', limit: 10, collapseDuplicates: true });
  assert.deepEqual(res.hits.map((h) => h.key).sort(), ['orig', 'other']);
  const budget = res.hits.find((h) => h.key === 'orig')!;
  assert.deepEqual(
    budget.duplicates?.map((h) => h.key),
    ['copy', 'copy2'],
  );
  assert.equal(res.hits.find((h) => h.key === 'other')!.duplicates, undefined);
  const plain = s.search({ query: 'budget leave', language: 'en', limit: 10 });
  assert.equal(plain.hits.length, 4);
  await index.close();
});
