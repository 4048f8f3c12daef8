/**
 * Near-duplicates in a Searcher's snapshot, by SimHash signature (see
 * duplicates/near-duplicates.ts): the near-duplicates of one doc, and the
 * collapsing of a ranked list into groups under their best hit.
 */
import { nearDuplicatesIn, signatureWords, splitSignature } from '../duplicates/near-duplicates.ts';
import { leaderGroups } from '../duplicates/leader-groups.ts';
import { compileFilter, filterKey } from '../query/filter.ts';
import type { Filter, Hit } from '../query/types.ts';
import type { SearcherCore } from './searcher-core.ts';

/** A group of near-duplicate hits: its leader (global doc, score) and the others. */
export interface CollapsedGroup {
  doc: number;
  score: number;
  duplicates?: { doc: number; score: number }[];
}

export class DuplicateHits {
  /** Per segment: its signatures as 32-bit words, false when not available (see signatureWords). */
  private readonly sigWords: (Uint32Array | false)[] = [];

  constructor(private readonly core: SearcherCore) {}

  /**
   * Near-duplicates of `source` (a key, or a hit: see Searcher.moreLikeThis) (SimHash distance <= 3),
   * closest first; score = 1 - distance / 64.
   */
  duplicatesOf(source: string | Hit, opts: { filter?: Filter; limit: number }): Hit[] {
    const core = this.core;
    if (opts.filter !== undefined) core.validate(opts.filter);
    const loc = core.find(source);
    if (!loc) return [];
    const sig = core.segments[loc.segment].signature(loc.doc);
    const found: { g: number; distance: number }[] = [];
    const fkey = opts.filter ? filterKey(opts.filter) : '';
    core.segments.forEach((r, i) => {
      const near = nearDuplicatesIn(r, sig);
      if (near.length === 0) return;
      const accept = opts.filter ? compileFilter(opts.filter, fkey, r, core.cache, near.length).matches : null;
      for (const { doc, distance } of near) {
        if (r.isDeleted(doc) || (i === loc.segment && doc === loc.doc) || (accept && !accept(doc))) continue;
        found.push({ g: core.bases[i] + doc, distance });
      }
    });
    found.sort((a, b) => a.distance - b.distance || a.g - b.g);
    return found.slice(0, Math.max(0, opts.limit)).map((f) => core.hit(f.g, 1 - f.distance / 64));
  }

  /**
   * Groups hits (best first) whose signatures are within 3 bits of a better group leader;
   * Hit objects are made by the caller, for the groups it returns only.
   */
  collapse(sorted: { score: number; doc: number }[]): CollapsedGroup[] {
    const n = sorted.length;
    const his = new Int32Array(n);
    const los = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const { segment, doc } = this.core.split(sorted[i].doc);
      const words = (this.sigWords[segment] ??= signatureWords(this.core.segments[segment]) ?? false);
      if (words) {
        los[i] = words[2 * doc];
        his[i] = words[2 * doc + 1];
      } else [his[i], los[i]] = splitSignature(this.core.segments[segment].signature(doc));
    }
    const leaderOf = leaderGroups(
      n,
      (i) => his[i],
      (i) => los[i],
    );
    const leaders: CollapsedGroup[] = [];
    const groupOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const h = sorted[i];
      const l = leaderOf[i];
      if (l === i) {
        groupOf[i] = leaders.length;
        leaders.push({ doc: h.doc, score: h.score });
      } else (leaders[groupOf[l]].duplicates ??= []).push(h);
    }
    return leaders;
  }
}
