/**
 * SimHash signatures: deterministic, insensitive to term order, close for near-duplicate
 * term lists and far for unrelated ones; the SWAR vote counting equals a plain bit count.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { simhash, hammingDistance, termHash, SimHashBuilder } from '../../../engine/duplicates/simhash.ts';

const words = (s: string) => s.split(/\s+/).filter(Boolean);
const base = words(
  'the quarterly report describes revenue growth in the european market and the new product line launched in march with strong demand from enterprise customers',
);

describe('simhash', () => {
  it('is deterministic and ignores term order', () => {
    assert.equal(simhash(base), simhash([...base].reverse()));
    assert.equal(hammingDistance(simhash(base), simhash(base)), 0);
  });

  it('keeps near duplicates within a few bits and unrelated texts far apart', () => {
    const near = [...base];
    near[5] = 'profit';
    const other = words(
      'zebras migrate across the savanna during the dry season following rain and fresh grass for hundreds of kilometres',
    );
    const dNear = hammingDistance(simhash(base), simhash(near));
    const dFar = hammingDistance(simhash(base), simhash(other));
    assert.ok(dNear <= 6, `near duplicate distance ${dNear}`);
    assert.ok(dFar >= 16, `unrelated distance ${dFar}`);
  });

  it('counts weighted votes exactly (compared with a naive 64-counter implementation)', () => {
    const terms = Array.from({ length: 700 }, (_, i) => `t${i % 300}`);
    const counts = new Map<string, number>();
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    const votes = new Array(64).fill(0);
    let total = 0;
    const b = new SimHashBuilder();
    for (const [t, tf] of counts) {
      const [hi, lo] = termHash(t);
      const w = 32 - Math.clz32(tf);
      total += w;
      for (let i = 0; i < 32; i++) {
        if ((lo >>> i) & 1) votes[i] += w;
        if ((hi >>> i) & 1) votes[32 + i] += w;
      }
      b.add(hi, lo, tf);
    }
    let expected = 0n;
    for (let i = 0; i < 64; i++) if (2 * votes[i] > total) expected |= 1n << BigInt(i);
    assert.equal(b.finish(), expected);
    assert.equal(simhash([]), 0n);
  });
});
