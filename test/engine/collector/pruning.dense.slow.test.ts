/**
 * Dense, flat-score corpora (every doc has most query words, as in a
 * small-vocabulary push): MaxScore prunes little there and scores whole
 * windows term at a time (bulk-window.ts). Pruned top-k must still equal
 * exhaustive top-k exactly — keys, scores, order — with alternatives (some
 * asleep), excluded words, deletions, unfiltered queries and filters that
 * accept every doc, most docs or few; totals are exact or a lower bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryDirectory, openIndex, Searcher } from '../../../engine/index.ts';
import type { ParsedQuery, QueryClause } from '../../../engine/query/types.ts';
import { int, rng } from '../helpers/random.ts';

const schema = {
  textFields: { title: { boost: 2 }, body: {}, meta: { boost: 0.5 } },
  keywordFields: ['acl'],
  numericFields: [],
};
const VOCAB = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta', 'lambda', 'zeta', 'eta', 'iota'];

test('dense small-vocabulary corpus: pruned top-k equals exhaustive (term-at-a-time windows)', async () => {
  const r = rng(9090);
  const pick = (): string => VOCAB[Math.floor(r() * r() * VOCAB.length)];
  const text = (n: number): string => Array.from({ length: n }, pick).join(' ');
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  let id = 0;
  for (let batch = 0; batch < 3; batch++) {
    const n = batch === 0 ? 3000 : 700;
    for (let i = 0; i < n; i++) {
      // two spellings of a word (`alpha` / `alphas`) stand in for a word's alternative terms
      const body = text(int(r, 5, 60)).replace(/beta/g, () => (r() < 0.3 ? 'betas' : 'beta'));
      index.writer.add({
        key: `d${id++}`,
        language: 'en',
        text: { title: text(int(r, 0, 3)), body, meta: r() < 0.3 ? text(2) : '' },
        keywords: { acl: ['all', r() < 0.6 ? 'p' : r() < 0.1 ? 'rare' : 'q'] },
      });
    }
    for (let k = 0; k < 80; k++) index.writer.delete(`d${int(r, 0, id - 1)}`);
    await index.writer.commit();
  }
  const segs = [...index.reader.segments()];
  let inexact = 0;
  const n = 150;
  for (let q = 0; q < n; q++) {
    const fast = new Searcher(segs, { schema, generation: 1, totalHitsThreshold: q % 2 === 0 ? 0 : 1000 });
    const slow = new Searcher(segs, { schema, generation: 1, pruning: false });
    const clauses: QueryClause[] = [];
    for (let c = int(r, 1, 4); c > 0; c--) {
      const w = pick();
      const terms = w === 'beta' || r() < 0.3 ? [w, w === 'beta' ? 'betas' : pick()] : [w];
      clauses.push({ kind: 'word', occur: r() < 0.1 ? 'mustNot' : 'should', word: { text: w, terms, parts: [] } });
    }
    if (clauses.every((c) => c.occur === 'mustNot')) continue;
    const query: ParsedQuery = { text: '', language: 'en', clauses };
    // none; every doc; about 60%, 36% and 4% of the docs (dense filters are scored term at a time too)
    const filter = [undefined, ['all', 'x'], ['p'], ['q'], ['rare']].map((t) => t && { keyword: 'acl', anyOf: t })[
      q % 5
    ];
    const limit = int(r, 1, 15);
    const a = fast.search({ query, filter, limit });
    const b = slow.search({ query, filter, limit });
    const label = JSON.stringify(clauses.map((c) => [c.occur, c.kind === 'word' ? c.word.terms : []]));
    assert.deepEqual(
      a.hits.map((h) => [h.key, h.score]),
      b.hits.map((h) => [h.key, h.score]),
      label,
    );
    if (a.totalIsExact) assert.equal(a.total, b.total, label);
    else {
      assert.ok(a.total <= b.total, label);
      inexact++;
    }
  }
  assert.ok(inexact > 20, `pruning happened in ${inexact} queries`);
  await index.close();
});
