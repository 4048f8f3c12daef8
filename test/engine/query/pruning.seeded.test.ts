/**
 * Seeded MaxScore (seed.ts): queries whose rarest term is a small share of the
 * postings (a rare alternative next to a common one, a rare word next to common
 * words) return exactly the top-k of exhaustive scoring — same keys, scores and
 * order — with and without filters, with ties, over several segments; and the
 * seed is the rarest single term.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Searcher } from '../../../engine/searcher.ts';
import { GlobalStats, buildPlan } from '../../../engine/query/plan.ts';
import { pickSeed, SEED_RATIO } from '../../../engine/query/seed.ts';
import type { Filter, ParsedQuery, QueryClause } from '../../../engine/query/types.ts';
import { bm25Params } from '../../../engine/scoring/bm25.ts';
import { memorySegment } from '../helpers/memory-segment.ts';
import type { MemDoc } from '../helpers/memory-segment.ts';
import { simpleAnalyzer } from '../helpers/simple-analyzer.ts';
import { int, rng } from '../helpers/random.ts';

const schema = { textFields: { title: { boost: 2 }, body: {} }, keywordFields: ['acl'], numericFields: [] };

/** Docs of common words c0..c3 (in most docs), rare words r0..r2 (in about 1 doc in 25), filler words. */
function seedIndex(seed: number) {
  const r = rng(seed);
  const segs = [];
  let id = 0;
  for (let s = 0, nSegs = int(r, 1, 3); s < nSegs; s++) {
    const docs: MemDoc[] = [];
    for (let d = 0, n = int(r, 300, 900); d < n; d++) {
      const words = (len: number) =>
        Array.from({ length: len }, () => {
          const x = r();
          return x < 0.006 ? `r${int(r, 0, 2)}` : x < 0.6 ? `c${int(r, 0, 3)}` : `f${int(r, 0, 300)}`;
        }).join(' ');
      // few distinct lengths and freqs: many equal scores (ties by doc id)
      docs.push({ key: `d${id++}`, text: { title: words(int(r, 0, 2)), body: words(int(r, 2, 12)) }, keywords: { acl: [`t${int(r, 0, 3)}`] } });
    }
    segs.push(memorySegment(`s${s}`, docs, { analyze: simpleAnalyzer.analyze, blockSize: int(r, 4, 32), deleted: docs.map((_, d) => d).filter(() => r() < 0.05) }));
  }
  return { segs, r };
}

function seedQuery(r: () => number): ParsedQuery {
  const clauses: QueryClause[] = [];
  const rare = () => `r${int(r, 0, 2)}`;
  const common = () => `c${int(r, 0, 3)}`;
  const shape = int(r, 0, 2);
  if (shape === 0) clauses.push({ kind: 'word', occur: 'should', word: { text: 'x', terms: [rare(), common()], parts: [] } });
  else if (shape === 1) {
    clauses.push({ kind: 'word', occur: 'should', word: { text: 'x', terms: [common()], parts: [] } });
    clauses.push({ kind: 'word', occur: 'should', word: { text: 'y', terms: [rare()], parts: [] } });
  } else {
    clauses.push({ kind: 'word', occur: 'should', word: { text: 'x', terms: [common(), rare()], parts: [] } });
    clauses.push({ kind: 'word', occur: 'should', word: { text: 'y', terms: [common()], parts: r() < 0.5 ? [rare()] : [] } });
  }
  return { text: 'x', language: 'en', clauses };
}

test('seeded pruned top-k equals exhaustive top-k', () => {
  let queries = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const { segs, r } = seedIndex(seed);
    const fieldScoring = seed % 3 === 0 ? 'sum' : 'combined';
    const fast = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, fieldScoring });
    const slow = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, pruning: false, fieldScoring });
    for (let q = 0; q < 20; q++) {
      const query = seedQuery(r);
      const filter: Filter | undefined = r() < 0.5 ? { keyword: 'acl', anyOf: [`t${int(r, 0, 3)}`, `t${int(r, 0, 3)}`] } : undefined;
      const limit = int(r, 1, 40);
      const a = fast.search({ query, filter, limit, collapseDuplicates: r() < 0.3 });
      const b = slow.search({ query, filter, limit, collapseDuplicates: false });
      const ctx = `seed ${seed} query ${q}: ${JSON.stringify(query.clauses)} filter ${JSON.stringify(filter)} limit ${limit}`;
      if (a.hits.some((h) => h.duplicates)) continue; // collapsed pages are compared by the engine's own tests
      assert.deepEqual(a.hits.map((h) => [h.key, h.score]), b.hits.map((h) => [h.key, h.score]), ctx);
      queries++;
    }
  }
  assert.ok(queries > 150, `${queries} queries compared`);
});

test('the seed is the rarest single term, and these queries qualify for seeding', () => {
  const { segs } = seedIndex(3);
  const stats = new GlobalStats(segs);
  const fields = [{ name: 'title', boost: 2 }, { name: 'body', boost: 1 }];
  const q: ParsedQuery = { text: 'x', language: 'en', clauses: [{ kind: 'word', occur: 'should', word: { text: 'x', terms: ['c0', 'r1'], parts: [] } }] };
  const plan = buildPlan(q, { segments: segs, fields, bm25: bm25Params() }, stats);
  const seed = pickSeed(plan.scoring, stats, 0);
  assert.ok(seed);
  assert.equal(seed.unit.kind === 'combined' ? seed.unit.alts.map((a) => a.term).join() : '', 'r1');
  const rare = stats.segmentDocFreq('title', 'r1', 0) + stats.segmentDocFreq('body', 'r1', 0);
  const common = stats.segmentDocFreq('title', 'c0', 0) + stats.segmentDocFreq('body', 'c0', 0);
  assert.equal(seed.cost, rare);
  assert.ok(rare * SEED_RATIO <= rare + common, `rare ${rare}, common ${common}`);
});
