/**
 * Tiered merge policy (a simplified Lucene TieredMergePolicy). Pure function: given the
 * segments not already merging, returns the ids of the best merge, or null.
 *
 * Segment size = file bytes x live ratio, floored at `floorSegmentBytes`. The index may hold
 * about `segmentsPerTier` segments per size tier (tiers grow by `maxMergeAtOnce`); beyond that
 * budget, or when more than `deletesPctAllowed` percent of docs are deleted, the policy picks
 * among windows of up to `maxMergeAtOnce` size-adjacent segments the one with the lowest score
 * skew x totalSize^0.05 x liveRatio^2 (balanced merges, small merges, merges reclaiming deletes).
 */

export interface MergePolicyOptions {
  segmentsPerTier: number;
  maxMergeAtOnce: number;
  floorSegmentBytes: number;
  maxMergedSegmentBytes: number;
  deletesPctAllowed: number;
}

export const DEFAULT_MERGE_POLICY: MergePolicyOptions = {
  segmentsPerTier: 10,
  maxMergeAtOnce: 10,
  floorSegmentBytes: 2 * 1024 * 1024,
  maxMergedSegmentBytes: 2 * 1024 * 1024 * 1024,
  deletesPctAllowed: 33,
};

export interface MergeCandidate {
  id: string;
  sizeBytes: number;
  maxDoc: number;
  delCount: number;
}

export function findMerge(
  segments: readonly MergeCandidate[],
  opts: MergePolicyOptions = DEFAULT_MERGE_POLICY,
): string[] | null {
  const live = (s: MergeCandidate) => (s.maxDoc === 0 ? 0 : s.sizeBytes * (1 - s.delCount / s.maxDoc));
  const eligible = segments
    .filter(
      (s) =>
        live(s) <= opts.maxMergedSegmentBytes / 2 || s.delCount / Math.max(1, s.maxDoc) > opts.deletesPctAllowed / 100,
    )
    .sort((a, b) => live(b) - live(a) || (a.id < b.id ? -1 : 1));
  if (eligible.length < 2) return null;

  let total = 0;
  let docs = 0;
  let dels = 0;
  let minSize = Infinity;
  for (const s of eligible) {
    total += live(s);
    docs += s.maxDoc;
    dels += s.delCount;
    minSize = Math.min(minSize, live(s));
  }
  let level = Math.max(opts.floorSegmentBytes, minSize);
  let remaining = total;
  let allowed = 0;
  for (;;) {
    const count = remaining / level;
    if (count < opts.segmentsPerTier) {
      allowed += Math.ceil(count);
      break;
    }
    allowed += opts.segmentsPerTier;
    remaining -= opts.segmentsPerTier * level;
    level *= opts.maxMergeAtOnce;
  }
  // as in Lucene: below the floor size the budget never drops under one tier
  allowed = Math.max(allowed, opts.segmentsPerTier);
  const deletePressure = docs > 0 && (dels / docs) * 100 > opts.deletesPctAllowed;
  if (eligible.length <= Math.max(allowed, 1) && !deletePressure) return null;

  let best: MergeCandidate[] | null = null;
  let bestScore = Infinity;
  for (let i = 0; i < eligible.length; i++) {
    const cand: MergeCandidate[] = [];
    let size = 0;
    for (let j = i; j < eligible.length && cand.length < opts.maxMergeAtOnce; j++) {
      const s = eligible[j];
      if (size + live(s) > opts.maxMergedSegmentBytes) continue;
      cand.push(s);
      size += live(s);
    }
    if (cand.length < 2) continue;
    let floored = 0;
    let largest = 0;
    let raw = 0;
    for (const s of cand) {
      const f = Math.max(opts.floorSegmentBytes, live(s));
      floored += f;
      largest = Math.max(largest, f);
      raw += s.sizeBytes;
    }
    const skew = largest / floored;
    const liveRatio = raw > 0 ? size / raw : 1;
    const score = skew * Math.pow(Math.max(size, 1), 0.05) * liveRatio * liveRatio;
    if (score < bestScore) {
      bestScore = score;
      best = cand;
    }
  }
  return best ? best.map((s) => s.id) : null;
}
