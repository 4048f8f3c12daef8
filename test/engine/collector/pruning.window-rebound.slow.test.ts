/**
 * Block-max MaxScore windows (max-score.ts) when a clause turns essential in
 * the middle of a segment: the clauses already bounded over the window have
 * moved their block cursors to its end (past every block, when a word's rare
 * alternative is exhausted and its common alternative was asleep), so the
 * window must not be cut shorter and bounded again. Pruned top-k must equal
 * exhaustive top-k: a word with an alternative that only occurs early in the
 * segment, a common alternative and a second rare word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Searcher } from '../../../engine/search/searcher.ts';
import type { ParsedQuery } from '../../../engine/query/types.ts';
import { memorySegment } from '../helpers/memory-segment.ts';
import type { MemDoc } from '../helpers/memory-segment.ts';
import { simpleAnalyzer } from '../helpers/simple-analyzer.ts';
import { int, rng } from '../helpers/random.ts';

const schema = { textFields: { title: { boost: 2 }, body: {} }, keywordFields: [], numericFields: [] };

function docs(r: () => number, n: number, pEarly: number, pLate: number, pOther: number): MemDoc[] {
  const out: MemDoc[] = [];
  for (let d = 0; d < n; d++) {
    const body: string[] = [];
    for (let k = int(r, 1, 30); k > 0; k--) body.push(`f${int(r, 0, 20)}`);
    if (d < n / 5 && r() < pEarly) body.push('early', 'early');
    if (r() < pLate) body.push('late');
    if (r() < pOther) body.push('other');
    const title = r() < 0.1 ? (r() < 0.5 ? 'late' : 'other') : `f${int(r, 0, 20)}`;
    out.push({ key: `d${d}`, text: { title, body: body.join(' ') } });
  }
  return out;
}

test('a clause turning essential mid-segment: pruned top-k equals exhaustive top-k', () => {
  let compared = 0;
  let pruned = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const r = rng(seed);
    const n = int(r, 200, 1200);
    const segs = [
      memorySegment('s0', docs(r, n, 0.2, 0.3 + r() * 0.5, 0.02 + r() * 0.1), {
        analyze: simpleAnalyzer.analyze,
        blockSize: int(r, 2, 16),
        withNorms: true,
      }),
    ];
    const fieldScoring = seed % 2 === 0 ? 'sum' : 'combined';
    const fast = new Searcher(segs, {
      schema,
      generation: 1,
      analyzer: simpleAnalyzer,
      totalHitsThreshold: 0,
      fieldScoring,
    });
    const slow = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, pruning: false, fieldScoring });
    const query: ParsedQuery = {
      text: '',
      language: 'en',
      clauses: [
        { kind: 'word', occur: 'should', word: { text: 'early', terms: ['early', 'late'], parts: [] } },
        { kind: 'word', occur: 'should', word: { text: 'other', terms: ['other'], parts: [] } },
      ],
    };
    for (const limit of [1, 3, 10]) {
      const a = fast.search({ query, limit });
      const b = slow.search({ query, limit });
      assert.deepEqual(
        a.hits.map((h) => [h.key, h.score]),
        b.hits.map((h) => [h.key, h.score]),
        `seed ${seed} limit ${limit}`,
      );
      compared++;
      if (!a.totalIsExact) pruned++;
    }
  }
  assert.ok(pruned > compared / 4, `pruning happened in ${pruned} of ${compared} searches`);
});
