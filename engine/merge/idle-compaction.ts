/**
 * Idle compaction policy. Pure function: given the segments not already merging,
 * returns the ids of the next merge that brings an index nobody writes to down
 * towards `maxSegments` segments, or null.
 *
 * Every query pays per segment (a term lookup per query term and field, a
 * filter bitset, the scorers), so a read-mostly index searches fastest as one
 * segment; the tiered policy (tiered-policy.ts) leaves about ten per size tier
 * because it must bound the work of merging while documents keep arriving. Once
 * the writer has been quiet for a while (the scheduler decides that), this
 * policy merges further, while the index has more than `maxSegments` segments:
 *
 * - a merge is a run of segments adjacent in (live) size, smallest first, at
 *   most `maxMergeAtOnce` of them and no more than reaching `maxSegments` takes;
 * - a segment joins the run only when the smaller ones already in it hold at
 *   least `minRatio` of its live size: no segment is rewritten for a sliver.
 *   A segment grows by at least that fraction each time it is rewritten, so
 *   however often short bursts of writes alternate with quiet periods, the
 *   bytes rewritten into the large segments stay within about
 *   (1 + minRatio) / minRatio times the bytes added (a geometric series); the
 *   index settles at a few segments of growing size until the small ones are
 *   worth folding into the large;
 * - no merged segment exceeds `maxMergedSegmentBytes` (live bytes).
 *
 * With `minRatio` 0 and no size cap it is the plan of an explicit forceMerge: smallest first,
 * down to exactly `maxSegments`.
 */

export interface CompactionOptions {
  /** Quiet time (no add or delete) before compacting, ms; 0 turns compaction off. */
  idleMs: number;
  /** Segments an idle index is merged down to. Default 1. */
  maxSegments: number;
  /** A segment is rewritten only together with smaller ones holding this fraction of its size. Default 0.1. */
  minRatio: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = { idleMs: 0, maxSegments: 1, minRatio: 0.1 };

export interface CompactionCandidate {
  id: string;
  sizeBytes: number;
  maxDoc: number;
  delCount: number;
}

const live = (s: CompactionCandidate) => (s.maxDoc === 0 ? 0 : s.sizeBytes * (1 - s.delCount / s.maxDoc));

export function findIdleMerge(
  segments: readonly CompactionCandidate[],
  opts: { maxSegments: number; minRatio: number; maxMergeAtOnce: number; maxMergedSegmentBytes: number },
): string[] | null {
  const max = Math.max(1, Math.floor(opts.maxSegments));
  if (segments.length <= max) return null;
  const bySize = [...segments].sort((a, b) => live(a) - live(b) || (a.id < b.id ? -1 : 1));
  // never more than it takes to reach maxSegments
  const atOnce = Math.max(2, Math.min(segments.length - max + 1, Math.floor(opts.maxMergeAtOnce)));
  for (let start = 0; start < bySize.length - 1; start++) {
    let sum = live(bySize[start]);
    let end = start + 1;
    while (end < bySize.length && end - start < atOnce) {
      const next = live(bySize[end]);
      if (sum < opts.minRatio * next || sum + next > opts.maxMergedSegmentBytes) break;
      sum += next;
      end++;
    }
    if (end - start >= 2) return bySize.slice(start, end).map((s) => s.id);
  }
  return null;
}
