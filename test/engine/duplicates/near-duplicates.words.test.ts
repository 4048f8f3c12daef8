/**
 * Signatures as 32-bit words (signatureWords, halvesDistance): the words viewed on a written
 * segment's signature column are the halves of every doc's signature, and the distance of
 * halves is the Hamming distance; collapsing by them groups exactly the docs within 3 bits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import {
  halvesDistance,
  hammingDistance,
  signatureWords,
  splitSignature,
} from '../../../engine/duplicates/near-duplicates.ts';
import type { SegmentReader } from '../../../engine/segment/types.ts';
import { SCHEMA, makeDoc } from '../helpers/storage-fixtures.ts';
import { int, rng } from '../helpers/random.ts';

test('signature words of a written segment are the halves of its signatures', async () => {
  const index = await openIndex({ directory: new MemoryDirectory(), schema: SCHEMA, merge: false });
  for (let i = 0; i < 50; i++)
    index.writer.add(makeDoc(i, { text: { title: `t ${i}`, body: `body ${i % 7} words ${i} more` } }));
  await index.writer.commit();
  const seg = index.reader.segments()[0];
  const words = signatureWords(seg);
  assert.ok(words, 'a file segment exposes its signature column');
  for (let d = 0; d < seg.maxDoc; d++) {
    const [hi, lo] = splitSignature(seg.signature(d));
    assert.deepEqual([words[2 * d + 1], words[2 * d]], [hi, lo], `doc ${d}`);
  }
  assert.equal(signatureWords({ signature: () => 0n } as unknown as SegmentReader), null);
  await index.close();
});

test('the distance of halves is the Hamming distance', () => {
  const r = rng(3);
  const sig = () => (BigInt(int(r, 0, 2 ** 31)) << 33n) ^ (BigInt(int(r, 0, 2 ** 31)) << 1n) ^ BigInt(int(r, 0, 1));
  for (let i = 0; i < 500; i++) {
    const a = sig();
    let b = i % 2 ? sig() : a;
    for (let f = int(r, 0, 5); f > 0; f--) b ^= 1n << BigInt(int(r, 0, 63));
    const [ah, al] = splitSignature(a);
    const [bh, bl] = splitSignature(b);
    assert.equal(halvesDistance(ah, al, bh, bl), hammingDistance(a, b));
  }
});
