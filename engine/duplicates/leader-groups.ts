/**
 * Grouping a ranked list into near-duplicate groups (Searcher's collapseDuplicates):
 * each item joins the first earlier leader whose SimHash signature is within
 * MAX_DUPLICATE_DISTANCE bits of its own, or becomes a leader itself.
 *
 * Leaders are indexed by the four 16-bit bands of their signatures: two
 * signatures within 3 bits agree exactly on at least one band (pigeonhole), so
 * an item is compared only with the leaders sharing a band with it, not with
 * every leader (a page deep in a common word's hits groups tens of thousands of
 * items). The result is the same as comparing with every leader in order.
 */
import { bandValue, halvesDistance, MAX_DUPLICATE_DISTANCE } from './near-duplicates.ts';

/**
 * For items 0..n-1 in rank order with signature halves hi(i), lo(i): the leader index (an item
 * index) of each item; an item that leads its group is its own leader.
 */
export function leaderGroups(n: number, hi: (i: number) => number, lo: (i: number) => number): Int32Array {
  const leaderOf = new Int32Array(n);
  // Per band: band value -> the leaders (item indexes, ascending) having it.
  const bands = [
    new Map<number, number[]>(),
    new Map<number, number[]>(),
    new Map<number, number[]>(),
    new Map<number, number[]>(),
  ];
  for (let i = 0; i < n; i++) {
    const h = hi(i) >>> 0;
    const l = lo(i) >>> 0;
    let best = -1;
    for (let b = 0; b < 4; b++) {
      const list = bands[b].get(bandValue(h, l, b));
      if (list === undefined) continue;
      for (const j of list) {
        if (best >= 0 && j >= best) break;
        if (halvesDistance(hi(j), lo(j), h, l) <= MAX_DUPLICATE_DISTANCE) {
          best = j;
          break;
        }
      }
    }
    if (best >= 0) {
      leaderOf[i] = best;
      continue;
    }
    leaderOf[i] = i;
    for (let b = 0; b < 4; b++) {
      const key = bandValue(h, l, b);
      const list = bands[b].get(key);
      if (list === undefined) bands[b].set(key, [i]);
      else list.push(i);
    }
  }
  return leaderOf;
}
