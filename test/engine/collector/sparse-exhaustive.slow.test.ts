/**
 * Term-at-a-time exhaustive scoring (sparse-exhaustive.ts, used for more-like-this
 * queries of a few short postings lists) returns exactly what doc-at-a-time
 * exhaustive scoring returns: the same docs, bit-identical scores, the same count,
 * with and without filters (bitsets and per-doc checks), deleted docs and an
 * excluded source doc, on block postings (bulk drain) and on iterators without it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { executeQuery } from '../../../engine/search/execute.ts';
import type { SnapshotContext } from '../../../engine/search/execute.ts';
import { FilterCache } from '../../../engine/query/filter.ts';
import { GlobalStats } from '../../../engine/query/plan.ts';
import type { Filter, ParsedQuery } from '../../../engine/query/types.ts';
import { bm25Params } from '../../../engine/similarity/bm25.ts';
import type { PostingsIterator, SegmentReader } from '../../../engine/segment/types.ts';
import { int, rng, zipfWords } from '../helpers/random.ts';

const schema = {
  textFields: { title: { boost: 2 }, body: {}, meta: { boost: 0.5 } } as Record<string, { boost?: number }>,
  keywordFields: ['acl'],
  numericFields: [],
};

async function corpus(seed: number) {
  const r = rng(seed);
  const word = zipfWords(r, 400);
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  let id = 0;
  for (let batch = 0; batch < 3; batch++) {
    for (let i = 0; i < 1500; i++) {
      const title = Array.from({ length: int(r, 1, 6) }, word).join(' ');
      const body = Array.from({ length: int(r, 3, r() < 0.1 ? 400 : 40) }, word).join(' ');
      const acl = Array.from({ length: int(r, 1, 3) }, () => `g${int(r, 0, 30)}`);
      index.writer.add({
        key: `d${id++}`,
        language: 'en',
        text: { title, body, ...(r() < 0.3 ? { meta: word() } : {}) },
        keywords: { acl },
      });
    }
    for (let k = 0; k < 40; k++) index.writer.delete(`d${int(r, 0, id - 1)}`);
    await index.writer.commit();
  }
  return { index, r, word };
}

/** The reader with iterators that only have the PostingsIterator basics (no bulk drain). */
function withoutDrain(reader: SegmentReader): SegmentReader {
  const wrapped = Object.create(reader) as SegmentReader;
  wrapped.postings = (field: string, term: string, positions: boolean) => {
    const it = reader.postings(field, term, positions);
    if (!it) return null;
    const plain: PostingsIterator = {
      docID: () => it.docID(),
      nextDoc: () => it.nextDoc(),
      advance: (t) => it.advance(t),
      freq: () => it.freq(),
      positions: () => it.positions(),
      cost: () => it.cost(),
      advanceShallow: (t) => it.advanceShallow(t),
      blockImpacts: () => it.blockImpacts(),
    };
    return plain;
  };
  return wrapped;
}

function run(
  segments: SegmentReader[],
  query: ParsedQuery,
  filter: Filter | undefined,
  k: number,
  exclude: number,
  sparse: boolean,
  cache: FilterCache,
) {
  const bases: number[] = [];
  let base = 0;
  for (const s of segments) {
    bases.push(base);
    base += s.maxDoc;
  }
  const fields = Object.entries(schema.textFields).map(([name, f]) => ({ name, boost: f.boost ?? 1 }));
  const ctx: SnapshotContext = {
    segments,
    bases,
    fields,
    bm25: bm25Params(),
    stats: new GlobalStats(segments),
    filterCache: cache,
    fieldScoring: 'combined',
  };
  const { top, st } = executeQuery(ctx, {
    query,
    filter,
    k,
    excludeGlobal: exclude,
    pruning: false,
    totalHitsThreshold: 0,
    exhaustiveMaxCost: sparse ? 1 << 20 : 0,
  });
  return { hits: top.sorted(), count: st.count };
}

function words(terms: string[]): ParsedQuery {
  return {
    text: terms.join(' '),
    language: 'en',
    clauses: terms.map((t) => ({
      kind: 'word' as const,
      occur: 'should' as const,
      word: { text: t, terms: [t], parts: [] },
    })),
  };
}

test('term-at-a-time exhaustive equals doc-at-a-time exhaustive: hits, scores, counts', async () => {
  for (const seed of [3, 4]) {
    const { index, r, word } = await corpus(seed);
    const segs = [...index.reader.segments()];
    assert.ok(segs.length >= 3);
    const plain = segs.map(withoutDrain);
    const cache = new FilterCache();
    let compared = 0;
    for (let q = 0; q < 80; q++) {
      const terms = Array.from({ length: int(r, 1, 6) }, () => (r() < 0.7 ? `w${int(r, 100, 399)}` : word()));
      const query = words([...new Set(terms)]);
      const filter: Filter | undefined =
        q % 3 === 0
          ? undefined
          : {
              keyword: 'acl',
              anyOf: Array.from({ length: int(r, 1, q % 3 === 1 ? 3 : 12) }, () => `g${int(r, 0, 30)}`),
            };
      const k = int(r, 1, 20);
      const exclude = q % 2 === 0 ? -1 : int(r, 0, 4000);
      const want = run(segs, query, filter, k, exclude, false, cache);
      for (const readers of [segs, plain]) {
        const got = run(readers, query, filter, k, exclude, true, cache);
        assert.deepEqual(
          got.hits,
          want.hits,
          `seed ${seed} query ${query.text} filter ${JSON.stringify(filter)} k ${k}`,
        );
        assert.equal(got.count, want.count);
      }
      if (want.hits.length > 0) compared++;
    }
    assert.ok(compared > 40, `${compared} queries with hits`);
    await index.close();
  }
});
