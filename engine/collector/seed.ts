/**
 * Seeding a segment's top k before block-max MaxScore (max-score.ts): the docs
 * of the query's rarest term (one alternative of one clause, e.g. the rare
 * "called" next to the common stem "call") are scored exactly first, with
 * scorers of their own, and offered to the top k. When they fill it, MaxScore
 * starts with their k-th score as its floor instead of raising it doc by doc
 * from the segment's start, so a common low-weight term is pruned from the
 * first window on rather than after most of the segment.
 *
 * Same hits and scores as without seeding: a seeded doc's score is the sum of
 * the clauses' scores in canonical order, as every collector sums it; the
 * floor is the k-th best of real matches, so pruning stays safe (it drops only
 * docs scoring strictly below it; ties go to the lower doc id in TopDocs
 * whatever the order of offers); MaxScore does not offer a seeded doc again
 * (TopDocs.skip). Seeded docs are not counted (the pass counts what it sees).
 *
 * Applies to a segment without required or excluded clauses, once exact
 * counting is over, while the top k is not full (earlier segments have not set
 * a floor: on an index of many segments, seeding each of them costs more in
 * dictionary lookups and scorers than it saves), when the rarest term holds at
 * most a 1/SEED_RATIO share of the clauses' postings and at most MAX_SEED_POSTINGS.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import type { SegmentReader } from '../segment/types.ts';
import { openUnit } from '../query/plan.ts';
import type { GlobalStats, Unit } from '../query/plan.ts';
import { advanceMatching } from '../scorer/scorers.ts';
import type { Scorer } from '../scorer/scorers.ts';
import type { CollectState, SegmentTask } from './segment-task.ts';
import type { TopDocs } from './top-docs.ts';

/** The clauses' postings must be at least this many times the seed term's. */
export const SEED_RATIO = 16;
/** Largest seed term (postings in the segment). */
export const MAX_SEED_POSTINGS = 1 << 12;

/** The rarest single term of the scoring units (phrases left out) as a unit of its own, with its postings in segment `i`. */
export function pickSeed(units: readonly Unit[], stats: GlobalStats, i: number): { unit: Unit; cost: number } | null {
  let best: Unit | null = null;
  let bestCost = Infinity;
  for (const u of units) {
    if (u.kind === 'combined') {
      for (const a of u.alts) {
        let cost = 0;
        for (const f of a.fields) cost += stats.segmentDocFreq(f.name, a.term, i);
        if (cost > 0 && cost < bestCost) {
          bestCost = cost;
          best = { kind: 'combined', allFields: u.allFields, alts: [a] };
        }
      }
    } else if (u.kind === 'terms') {
      for (const a of u.alts) {
        const cost = stats.segmentDocFreq(u.field, a.term, i);
        if (cost > 0 && cost < bestCost) {
          bestCost = cost;
          best = { kind: 'terms', field: u.field, alts: [a] };
        }
      }
    }
  }
  return best === null ? null : { unit: best, cost: bestCost };
}

/**
 * Seeds `top` for segment `i` of task `t` (whose scoring clauses were opened from `units`, in
 * order, skipping those without postings there); returns the global docs offered (to be
 * skipped by the pass), or null when seeding does not apply.
 */
export function seedTop(
  units: readonly Unit[],
  reader: SegmentReader,
  stats: GlobalStats,
  i: number,
  t: SegmentTask,
  top: TopDocs,
  st: CollectState,
): Set<number> | null {
  if (
    t.required.length > 0 ||
    t.excluded.length > 0 ||
    t.scoring.length === 0 ||
    top.k === 0 ||
    top.full ||
    st.count < st.threshold
  )
    return null;
  let total = 0;
  for (const c of t.scoring) total += c.cost;
  const pick = pickSeed(units, stats, i);
  if (pick === null || pick.cost > MAX_SEED_POSTINGS || pick.cost * SEED_RATIO > total) return null;
  const seed = openUnit(pick.unit, reader, stats, i);
  if (seed === null) return null;
  const probes: Scorer[] = [];
  for (const u of units) {
    const s = openUnit(u, reader, stats, i);
    if (s) probes.push(s);
  }
  if (probes.length !== t.scoring.length) return null;
  const bits = t.bits ?? null;
  const seeded = new Set<number>();
  for (
    let d = bits !== null ? advanceMatching(seed, 0, bits) : seed.nextDoc();
    d !== NO_MORE_DOCS;
    d = bits !== null ? advanceMatching(seed, d + 1, bits) : seed.nextDoc()
  ) {
    if (!t.accept(d)) continue;
    let score = 0;
    for (let j = 0; j < probes.length; j++) {
      const p = probes[j];
      if (p.doc < d) p.advance(d);
      if (p.doc === d) score += p.score();
    }
    top.offer(score, t.docBase + d);
    seeded.add(t.docBase + d);
  }
  return seeded;
}
