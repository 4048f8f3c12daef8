/**
 * Near-duplicate groups of a ranked list (leader-groups.ts): every item joins the first earlier
 * leader within MAX_DUPLICATE_DISTANCE bits, as comparing it with every leader in order would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leaderGroups } from '../../../engine/duplicates/leader-groups.ts';
import { halvesDistance, MAX_DUPLICATE_DISTANCE } from '../../../engine/duplicates/near-duplicates.ts';
import { int, rng } from '../helpers/random.ts';

function bruteForce(his: number[], los: number[]): number[] {
  const leaders: number[] = [];
  return his.map((h, i) => {
    const l = leaders.find((j) => halvesDistance(his[j], los[j], h, los[i]) <= MAX_DUPLICATE_DISTANCE);
    if (l !== undefined) return l;
    leaders.push(i);
    return i;
  });
}

test('leader groups equal the leader-by-leader comparison on clustered random signatures', () => {
  let grouped = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const r = rng(seed);
    const bases = Array.from({ length: int(r, 1, 30) }, () => [(r() * 2 ** 32) >>> 0, (r() * 2 ** 32) >>> 0]);
    const his: number[] = [];
    const los: number[] = [];
    for (let i = int(r, 1, 600); i > 0; i--) {
      let [h, l] = bases[int(r, 0, bases.length - 1)];
      // 0-6 flipped bits: some within the distance of their base, some beyond it
      for (let f = int(r, 0, 6); f > 0; f--) {
        const bit = int(r, 0, 63);
        if (bit < 32) l = (l ^ (1 << bit)) >>> 0;
        else h = (h ^ (1 << (bit - 32))) >>> 0;
      }
      his.push(h);
      los.push(l);
    }
    const got = Array.from(
      leaderGroups(
        his.length,
        (i) => his[i],
        (i) => los[i],
      ),
    );
    const want = bruteForce(his, los);
    assert.deepEqual(got, want, `seed ${seed}`);
    grouped += want.filter((l, i) => l !== i).length;
  }
  assert.ok(grouped > 1000, `the signatures form groups (${grouped} grouped items)`);
});

test('signatures as signed 32-bit words group like their unsigned values', () => {
  const his = [0x80000001 | 0, 0x80000001 >>> 0, 0x7fffffff];
  const los = [0xffffffff | 0, 0xfffffff7 >>> 0, 0];
  assert.deepEqual(
    Array.from(
      leaderGroups(
        3,
        (i) => his[i],
        (i) => los[i],
      ),
    ),
    [0, 0, 2],
  );
});
