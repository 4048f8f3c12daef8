/**
 * Query budgets (engine/query/budget.ts): a query whose planned work is over its budget is
 * refused before any postings block is read; a query that spends its work or time budget
 * stops at a window boundary with the exact best hits of the docs it searched; a budget that
 * is never reached changes nothing; the parser caps clauses and expanded index terms.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hit, Index, Searcher } from '../../../engine/index.ts';
import { QueryError } from '../../../engine/index.ts';
import { postingsBlocksDecoded } from '../../../engine/postings/postings-reader.ts';
import { doc, indexOf } from '../helpers/index-fixture.ts';
import { int, rng } from '../helpers/random.ts';

const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'jasper'];
const RARE = Array.from({ length: 60 }, (_, i) => `rare${String.fromCharCode(97 + (i % 26))}${i}`);

let index: Index;
let searcher: Searcher;

before(async () => {
  const r = rng(23);
  // Three segments of 1,500 docs: long postings lists of the common words (many blocks, many windows).
  const batches = [0, 1, 2].map((s) =>
    Array.from({ length: 1500 }, (_, i) => {
      const words = Array.from({ length: int(r, 3, 30) }, () =>
        r() < 0.9 ? WORDS[Math.floor(r() * r() * WORDS.length)] : RARE[int(r, 0, RARE.length - 1)],
      );
      return doc(`s${s}d${i}`, words.slice(0, 3).join(' '), words.join(' '));
    }),
  );
  index = await indexOf(...batches);
  searcher = index.reader.searcher();
});
after(() => index.close());

/** Position of a hit in the snapshot's doc order (segment, then doc id): ties rank the earlier doc first. */
const order = (h: Hit) => h.ref.segment * 1e6 + h.ref.doc;

/** Every matching doc with its exact score (an unbudgeted search for all of them). */
function allMatches(query: string): Hit[] {
  return searcher.search({ query, language: 'en', limit: 10_000 }).hits;
}

test('a search cut by its work budget returns the exact best hits of the docs it searched, in score order', () => {
  // (no rare term: no docs are scored ahead of the windows by seeding, seed.ts)
  const query = 'amber basalt cobalt dune ember';
  const all = allMatches(query);
  const full = searcher.search({ query, language: 'en', limit: 10 });
  let cuts = 0;
  for (const maxWork of [1, 5, 20, 60, 150]) {
    const cut = searcher.search({ query, language: 'en', limit: 10, budget: { maxWork } });
    if (!cut.cut) continue;
    cuts++;
    assert.equal(cut.cut.limit, 'work');
    assert.equal(cut.totalIsExact, false);
    // exact scores, in exact order (score descending, earlier doc first)
    const exact = new Map(all.map((h) => [h.key, h.score]));
    for (const h of cut.hits) assert.equal(h.score, exact.get(h.key), `score of ${h.key}`);
    for (let i = 1; i < cut.hits.length; i++) {
      const [a, b] = [cut.hits[i - 1], cut.hits[i]];
      assert.ok(a.score > b.score || (a.score === b.score && order(a) < order(b)), 'hits in score order');
    }
    // the best of every doc up to the last one it returned: nothing it searched and skipped beats them
    const reach = Math.max(...cut.hits.map(order));
    const searched = all.filter((h) => order(h) <= reach);
    assert.deepEqual(
      cut.hits.map((h) => h.key),
      searched.slice(0, 10).map((h) => h.key),
      `maxWork ${maxWork}`,
    );
  }
  assert.ok(cuts >= 3, 'small budgets cut the search');
  const tiny = searcher.search({ query, language: 'en', limit: 10, budget: { maxWork: 1 } });
  assert.notDeepEqual(
    tiny.hits.map((h) => h.key),
    full.hits.map((h) => h.key),
    'the cut changed the answer (the test can fail)',
  );
});

test('a budget cut of a collapsed search also keeps exact scores in order', () => {
  const query = 'granite harbor indigo jasper amber';
  const exact = new Map(allMatches(query).map((h) => [h.key, h.score]));
  const cut = searcher.search({ query, language: 'en', limit: 20, collapseDuplicates: true, budget: { maxWork: 10 } });
  assert.equal(cut.cut?.limit, 'work');
  for (const h of cut.hits) assert.equal(h.score, exact.get(h.key));
  for (let i = 1; i < cut.hits.length; i++) assert.ok(cut.hits[i - 1].score >= cut.hits[i].score);
});

test('a search past its time budget stops with the hits found so far', () => {
  const cut = searcher.search({ query: 'amber basalt cobalt', language: 'en', limit: 10, budget: { maxMs: 0 } });
  assert.equal(cut.cut?.limit, 'time');
  for (let i = 1; i < cut.hits.length; i++) assert.ok(cut.hits[i - 1].score >= cut.hits[i].score);
});

test('a query whose planned work is over its budget is refused before any postings block is read', () => {
  const query = searcher.parse('amber basalt cobalt dune ember fjord', 'en');
  const blocks = postingsBlocksDecoded();
  assert.throws(
    () => searcher.search({ query, limit: 10, budget: { maxPlannedWork: 10 } }),
    (err: unknown) => err instanceof QueryError && err.code === 'over_budget' && /the limit is 10\b/.test(err.message),
  );
  assert.equal(postingsBlocksDecoded(), blocks, 'nothing was read');
  // the same query under a larger planned budget runs
  assert.ok(searcher.search({ query, limit: 10, budget: { maxPlannedWork: 1e9 } }).hits.length > 0);
});

test('budgets that are not reached change nothing', () => {
  const r = rng(5);
  const all = [...WORDS, ...RARE];
  for (let q = 0; q < 60; q++) {
    const words = Array.from({ length: int(r, 1, 6) }, () => all[int(r, 0, all.length - 1)]);
    const query = (r() < 0.2 ? `+${words[0]} ` : '') + words.join(' ');
    for (const collapseDuplicates of [false, true]) {
      const plain = searcher.search({ query, language: 'en', limit: 15, collapseDuplicates });
      const budgeted = searcher.search({
        query,
        language: 'en',
        limit: 15,
        collapseDuplicates,
        budget: { maxWork: 1e12, maxMs: 1e9, maxPlannedWork: 1e12 },
      });
      assert.equal(budgeted.cut, undefined);
      assert.deepEqual(
        budgeted.hits.map((h) => [h.key, h.score]),
        plain.hits.map((h) => [h.key, h.score]),
        query,
      );
      assert.deepEqual([budgeted.total, budgeted.totalIsExact], [plain.total, plain.totalIsExact]);
    }
  }
});

test('the parser refuses more clauses or more expanded index terms than its limits', () => {
  assert.throws(
    () => searcher.parse('amber basalt cobalt', 'en', { maxClauses: 2 }),
    (err: unknown) => err instanceof QueryError && err.code === 'too_many_clauses',
  );
  // a hyphenated technical word expands into its whole form and its parts
  const parsed = searcher.parse('il-6 amber', 'en');
  const terms = parsed.clauses.reduce(
    (n, c) => n + (c.kind === 'word' ? c.word.terms.length + c.word.parts.length : 0),
    0,
  );
  assert.ok(terms > parsed.clauses.length, 'expansions counted beyond the clauses');
  assert.doesNotThrow(() => searcher.parse('il-6 amber', 'en', { maxTerms: terms }));
  assert.throws(
    () => searcher.parse('il-6 amber', 'en', { maxTerms: terms - 1 }),
    (err: unknown) =>
      err instanceof QueryError && err.code === 'too_many_terms' && err.message.includes(`the limit is ${terms - 1}`),
  );
});
