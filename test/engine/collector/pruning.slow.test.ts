/**
 * Dynamic pruning (block-max MaxScore) must return exactly the top-k of
 * exhaustive scoring — same keys, same scores, same order — on many random
 * multi-segment indexes and queries (alternatives, compound parts, phrases,
 * required/excluded clauses, filters, deletions, pagination).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Searcher } from '../../../engine/search/searcher.ts';
import type { Filter, ParsedQuery, QueryClause } from '../../../engine/query/types.ts';
import { memorySegment } from '../helpers/memory-segment.ts';
import type { MemDoc } from '../helpers/memory-segment.ts';
import { simpleAnalyzer } from '../helpers/simple-analyzer.ts';
import { int, rng, zipfWords } from '../helpers/random.ts';

const schema = { textFields: { title: { boost: 2 }, body: {} }, keywordFields: ['acl'], numericFields: ['n'] };

function randomIndex(seed: number) {
  const r = rng(seed);
  const word = zipfWords(r, int(r, 8, 40));
  const segs = [];
  const nSegs = int(r, 1, 4);
  let id = 0;
  for (let s = 0; s < nSegs; s++) {
    const docs: MemDoc[] = [];
    const n = int(r, 5, 250);
    for (let d = 0; d < n; d++) {
      const title = Array.from({ length: int(r, 0, 4) }, word).join(' ');
      const body = Array.from({ length: int(r, 1, r() < 0.1 ? 200 : 40) }, word).join(' ');
      docs.push({
        key: `d${id++}`,
        text: { title, body },
        keywords: { acl: Array.from({ length: int(r, 0, 3) }, () => `t${int(r, 0, 9)}`) },
        numbers: r() < 0.9 ? { n: int(r, 0, 100) } : {},
      });
    }
    const deleted = docs.map((_, d) => d).filter(() => r() < 0.1);
    segs.push(
      memorySegment(`s${s}`, docs, {
        analyze: simpleAnalyzer.analyze,
        blockSize: int(r, 1, 9),
        deleted,
        withNorms: r() < 0.7,
      }),
    );
  }
  return { segs, r, word };
}

function randomQuery(r: () => number, word: () => string): ParsedQuery {
  const clauses: QueryClause[] = [];
  const n = r() < 0.1 ? int(r, 10, 30) : int(r, 1, 6);
  for (let i = 0; i < n; i++) {
    const x = r();
    const occur = x < 0.1 ? 'must' : x < 0.18 ? 'mustNot' : 'should';
    if (r() < 0.12) {
      const len = int(r, 2, 3);
      clauses.push({
        kind: 'phrase',
        occur,
        text: '',
        slots: Array.from({ length: len }, (_, k) => ({ terms: [word()], offset: k + (r() < 0.1 ? 1 : 0) })),
      });
    } else {
      const terms = r() < 0.2 ? [word(), word()] : [word()];
      const parts = r() < 0.15 ? [word()] : [];
      clauses.push({ kind: 'word', occur, word: { text: terms[0], terms, parts } });
    }
  }
  return { text: '', language: 'en', clauses };
}

function randomFilter(r: () => number): Filter | undefined {
  const x = r();
  if (x < 0.6) return undefined;
  const kw: Filter = { keyword: 'acl', anyOf: Array.from({ length: int(r, 1, 5) }, () => `t${int(r, 0, 9)}`) };
  if (x < 0.75) return kw;
  if (x < 0.85) return { numeric: 'n', gte: int(r, 0, 50), lte: int(r, 50, 100) };
  if (x < 0.93) return { and: [kw, { not: { numeric: 'n', lte: int(r, 0, 30) } }] };
  return { or: [kw, { numeric: 'n', gte: 90 }] };
}

test('pruned top-k equals exhaustive top-k on random indexes', () => {
  let queries = 0;
  let pruned = 0;
  let nonEmpty = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const { segs, r, word } = randomIndex(seed);
    const threshold = int(r, 0, 20);
    const fieldScoring = seed % 2 === 0 ? 'sum' : 'combined';
    const fast = new Searcher(segs, {
      schema,
      generation: 1,
      analyzer: simpleAnalyzer,
      totalHitsThreshold: threshold,
      fieldScoring,
    });
    const slow = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, pruning: false, fieldScoring });
    for (let q = 0; q < 25; q++) {
      const query = randomQuery(r, word);
      const filter = randomFilter(r);
      const limit = int(r, 1, 15);
      const offset = r() < 0.3 ? int(r, 1, 10) : 0;
      const a = fast.search({ query, filter, limit, offset });
      const b = slow.search({ query, filter, limit, offset });
      const ctx = `seed ${seed} query ${q}: ${JSON.stringify(query.clauses)} filter ${JSON.stringify(filter)} limit ${limit} offset ${offset}`;
      assert.deepEqual(
        a.hits.map((h) => [h.key, h.score]),
        b.hits.map((h) => [h.key, h.score]),
        ctx,
      );
      assert.equal(b.totalIsExact, true);
      if (a.totalIsExact) assert.equal(a.total, b.total, ctx);
      else {
        assert.ok(a.total <= b.total && a.total >= Math.min(threshold, b.total), ctx);
        pruned++;
      }
      queries++;
      if (b.hits.length > 0) nonEmpty++;
    }
  }
  assert.ok(pruned > queries / 10, `pruning happened in ${pruned} of ${queries} queries`);
  assert.ok(nonEmpty > queries / 2, `${nonEmpty} of ${queries} queries had hits`);
});

test('scores are ordered best first with ties broken by segment order then doc id', () => {
  for (let seed = 100; seed < 110; seed++) {
    const { segs, r, word } = randomIndex(seed);
    const s = new Searcher(segs, { schema, generation: 1, analyzer: simpleAnalyzer, totalHitsThreshold: 0 });
    const order = new Map<string, number>();
    let g = 0;
    for (const seg of segs) for (let d = 0; d < seg.maxDoc; d++) order.set(seg.key(d), g++);
    for (let q = 0; q < 10; q++) {
      const res = s.search({ query: randomQuery(r, word), limit: 30 });
      for (let i = 1; i < res.hits.length; i++) {
        const p = res.hits[i - 1];
        const c = res.hits[i];
        assert.ok(p.score > c.score || (p.score === c.score && order.get(p.key)! < order.get(c.key)!));
      }
    }
  }
});

test('pruned equals exhaustive on real segments (128-doc blocks, impacts, several segments, deletions)', async () => {
  const { MemoryDirectory, openIndex } = await import('../../../engine/index.ts');
  const r = rng(4242);
  const word = zipfWords(r, 60);
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  let id = 0;
  for (let batch = 0; batch < 3; batch++) {
    for (let i = 0; i < 1500; i++) {
      const title = Array.from({ length: int(r, 0, 4) }, word).join(' ');
      const body = Array.from({ length: int(r, 1, r() < 0.05 ? 300 : 30) }, word).join(' ');
      index.writer.add({
        key: `d${id++}`,
        language: 'en',
        text: { title, body },
        keywords: { acl: [`t${int(r, 0, 9)}`] },
        numbers: { n: int(r, 0, 100) },
      });
    }
    for (let k = 0; k < 100; k++) index.writer.delete(`d${int(r, 0, id - 1)}`);
    await index.writer.commit();
  }
  const segs = [...index.reader.segments()];
  assert.ok(segs.length >= 2);
  let pruned = 0;
  for (let q = 0; q < 150; q++) {
    const fieldScoring = q % 3 === 0 ? 'sum' : 'combined';
    const fast = new Searcher(segs, { schema, generation: 1, totalHitsThreshold: 0, fieldScoring });
    const slow = new Searcher(segs, { schema, generation: 1, pruning: false, fieldScoring });
    const text = Array.from({ length: int(r, 1, 4) }, () => (r() < 0.1 ? '+' : r() < 0.05 ? '-' : '') + word()).join(
      ' ',
    );
    const filter = randomFilter(r);
    const limit = int(r, 1, 20);
    const a = fast.search({ query: text, language: 'en', filter, limit });
    const b = slow.search({ query: text, language: 'en', filter, limit });
    assert.deepEqual(
      a.hits.map((h) => [h.key, h.score]),
      b.hits.map((h) => [h.key, h.score]),
      `${text} ${JSON.stringify(filter)}`,
    );
    if (!a.totalIsExact) pruned++;
  }
  assert.ok(pruned > 30, `pruning happened in ${pruned} of 150 queries`);
  await index.close();
});

test('one word with rare and common alternatives, under filters: pruned equals exhaustive (dormant alternatives, filter-tightened window bounds)', async () => {
  const { MemoryDirectory, openIndex } = await import('../../../engine/index.ts');
  const r = rng(777);
  const word = zipfWords(r, 40);
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  let id = 0;
  for (let batch = 0; batch < 2; batch++) {
    for (let i = 0; i < 2500; i++) {
      const title = Array.from({ length: int(r, 0, 4) }, word).join(' ');
      const body =
        Array.from({ length: int(r, 1, r() < 0.05 ? 200 : 25) }, word).join(' ') + (r() < 0.02 ? ' rareword' : '');
      index.writer.add({
        key: `d${id++}`,
        language: 'en',
        text: { title, body },
        keywords: { acl: [`t${int(r, 0, 19)}`] },
        numbers: { n: int(r, 0, 100) },
      });
    }
    for (let k = 0; k < 50; k++) index.writer.delete(`d${int(r, 0, id - 1)}`);
    await index.writer.commit();
  }
  const segs = [...index.reader.segments()];
  let pruned = 0;
  const n = 120;
  for (let q = 0; q < n; q++) {
    const fast = new Searcher(segs, { schema, generation: 1, totalHitsThreshold: 0 });
    const slow = new Searcher(segs, { schema, generation: 1, pruning: false });
    const common = word();
    const terms = r() < 0.5 ? ['rareword', common] : [common, word(), 'rareword'];
    const query: ParsedQuery = {
      text: '',
      language: 'en',
      clauses: [{ kind: 'word', occur: 'should', word: { text: common, terms, parts: [] } }],
    };
    const filter: Filter | undefined =
      r() < 0.8
        ? { keyword: 'acl', anyOf: Array.from({ length: int(r, 1, 4) }, () => `t${int(r, 0, 19)}`) }
        : randomFilter(r);
    const limit = int(r, 1, 12);
    const a = fast.search({ query, filter, limit });
    const b = slow.search({ query, filter, limit });
    assert.deepEqual(
      a.hits.map((h) => [h.key, h.score]),
      b.hits.map((h) => [h.key, h.score]),
      `${terms} ${JSON.stringify(filter)} ${limit}`,
    );
    if (a.totalIsExact) assert.equal(a.total, b.total);
    else {
      assert.ok(a.total <= b.total);
      pruned++;
    }
  }
  assert.ok(pruned > n / 4, `pruning happened in ${pruned} of ${n} queries`);
  await index.close();
});

test('a filter every doc passes gives the unfiltered hits, totals and the deletions still apply', async () => {
  const { MemoryDirectory, openIndex } = await import('../../../engine/index.ts');
  const r = rng(99);
  const word = zipfWords(r, 30);
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  for (let i = 0; i < 3000; i++) {
    index.writer.add({
      key: `d${i}`,
      language: 'en',
      text: { title: word(), body: Array.from({ length: int(r, 1, 30) }, word).join(' ') },
      keywords: { acl: [`t${i % 3}`] },
    });
  }
  await index.writer.commit();
  for (let k = 0; k < 300; k++) index.writer.delete(`d${int(r, 0, 2999)}`);
  await index.writer.commit();
  const searcher = index.reader.searcher();
  const everyone: Filter = { keyword: 'acl', anyOf: ['t0', 't1', 't2'] };
  for (let q = 0; q < 40; q++) {
    const text = Array.from({ length: int(r, 1, 3) }, word).join(' ');
    for (let pass = 0; pass < 2; pass++) {
      // the second pass runs on the cached bitsets
      const a = searcher.search({ query: text, language: 'en', filter: everyone, limit: 10 });
      const b = searcher.search({ query: text, language: 'en', limit: 10 });
      assert.deepEqual(
        a.hits.map((h) => [h.key, h.score]),
        b.hits.map((h) => [h.key, h.score]),
        text,
      );
      assert.equal(a.total, b.total);
    }
  }
  const listed = searcher.search({ query: '', language: 'en', filter: everyone, limit: 10_000 });
  assert.equal(listed.total, searcher.numDocs);
  index.reader.release(searcher);
  await index.close();
});
