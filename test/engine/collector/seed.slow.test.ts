/**
 * Seeding the top k from the query's rarest term before MaxScore (seed.ts):
 * it applies to a rare word next to common ones, and the pruned search then
 * still returns exactly the top-k of exhaustive scoring (keys, scores, order),
 * unfiltered and under filters, on several segments with deletions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Searcher } from '../../../engine/search/searcher.ts';
import { GlobalStats, buildPlan, openUnit } from '../../../engine/query/plan.ts';
import { seedTop } from '../../../engine/collector/seed.ts';
import { TopDocs } from '../../../engine/collector/top-docs.ts';
import type { Filter, ParsedQuery } from '../../../engine/query/types.ts';
import type { Scorer } from '../../../engine/scorer/scorers.ts';
import { memorySegment } from '../helpers/memory-segment.ts';
import type { MemDoc } from '../helpers/memory-segment.ts';
import { simpleAnalyzer } from '../helpers/simple-analyzer.ts';
import { int, rng } from '../helpers/random.ts';

const schema = { textFields: { title: { boost: 2 }, body: {} }, keywordFields: ['acl'], numericFields: [] };

function corpus(seed: number) {
  const r = rng(seed);
  const segs = [];
  let id = 0;
  for (let s = 0; s < int(r, 1, 3); s++) {
    const docs: MemDoc[] = [];
    for (let d = int(r, 300, 900); d > 0; d--) {
      const body: string[] = [];
      for (let k = int(r, 2, 25); k > 0; k--)
        body.push(r() < 0.4 ? 'common' : r() < 0.5 ? 'usual' : `f${int(r, 0, 30)}`);
      if (r() < 0.02) body.push('rare');
      docs.push({
        key: `d${id++}`,
        text: {
          title: r() < 0.2 ? (r() < 0.05 ? 'common rare' : 'common') : `f${int(r, 0, 30)}`,
          body: body.join(' '),
        },
        keywords: { acl: [`t${int(r, 0, 4)}`] },
      });
    }
    segs.push(
      memorySegment(`s${s}`, docs, {
        analyze: simpleAnalyzer.analyze,
        blockSize: int(r, 4, 32),
        deleted: docs.map((_, d) => d).filter(() => r() < 0.05),
        withNorms: true,
      }),
    );
  }
  return { segs, r };
}

const word = (w: string) => ({
  kind: 'word' as const,
  occur: 'should' as const,
  word: { text: w, terms: [w], parts: [] },
});
const query: ParsedQuery = { text: '', language: 'en', clauses: [word('common'), word('rare'), word('usual')] };

test('seeding applies to a rare word next to common ones', () => {
  const { segs } = corpus(1);
  const stats = new GlobalStats(segs);
  const plan = buildPlan(
    query,
    {
      segments: segs,
      fields: [
        { name: 'title', boost: 2 },
        { name: 'body', boost: 1 },
      ],
      bm25: { k1: 1.2, b: 0.75 },
    },
    stats,
  );
  const reader = segs[0];
  const scoring: Scorer[] = [];
  for (const u of plan.scoring) {
    const s = openUnit(u, reader, stats, 0);
    if (s) scoring.push(s);
  }
  const top = new TopDocs(10);
  const task = {
    scoring,
    required: [],
    excluded: [],
    accept: (d: number) => !reader.isDeleted(d),
    nextCandidate: null,
    bits: null,
    docBase: 0,
    maxDoc: reader.maxDoc,
  };
  const seeded = seedTop(plan.scoring, reader, stats, 0, task, top, { count: 0, exact: true, threshold: 0 });
  assert.ok(seeded !== null && seeded.size > 0, 'seeded');
  assert.equal(top.size, Math.min(10, seeded.size));
});

test('with seeding, pruned top-k equals exhaustive top-k', () => {
  let compared = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const { segs, r } = corpus(seed);
    const fast = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, totalHitsThreshold: 0 });
    const slow = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, pruning: false });
    for (let q = 0; q < 6; q++) {
      const filter: Filter | undefined =
        q % 3 === 0
          ? undefined
          : { keyword: 'acl', anyOf: Array.from({ length: int(r, 1, 3) }, () => `t${int(r, 0, 4)}`) };
      const limit = int(r, 1, 20);
      const a = fast.search({ query, filter, limit });
      const b = slow.search({ query, filter, limit });
      assert.deepEqual(
        a.hits.map((h) => [h.key, h.score]),
        b.hits.map((h) => [h.key, h.score]),
        `seed ${seed} ${JSON.stringify(filter)} ${limit}`,
      );
      compared++;
    }
  }
  assert.equal(compared, 180);
});
