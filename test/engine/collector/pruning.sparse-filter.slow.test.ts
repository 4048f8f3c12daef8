/**
 * Pruned top-k equals exhaustive top-k for very common words under sparse
 * filters (access-token sets that accept a fifth of the docs or fewer), on
 * real segments (128-doc postings blocks, impacts): the case where a word's
 * docs without it in the title cannot compete, so only its title postings
 * lead the enumeration for a while (windows cut at the title's block edges,
 * the body postings lagging), alone and next to rarer words and alternatives.
 * Filters are asked for several times so that their cached bitsets are used.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import { Searcher } from '../../../engine/search/searcher.ts';
import { FilterCache } from '../../../engine/query/filter.ts';
import type { Filter, ParsedQuery } from '../../../engine/query/types.ts';
import { int, rng, zipfWords } from '../helpers/random.ts';

const schema = { textFields: { title: { boost: 2 }, body: {} }, keywordFields: ['acl'], numericFields: [] };

async function sparseIndex(seed: number) {
  const r = rng(seed);
  const word = zipfWords(r, 300);
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  let id = 0;
  for (let batch = 0; batch < 3; batch++) {
    for (let i = 0; i < 4000; i++) {
      // "common" is in about half of the bodies and a sixth of the titles, with varied counts and lengths.
      // "often" is in a third of the bodies but hardly any title (title blocks span whole segments).
      const title = [
        ...Array.from({ length: int(r, 1, 5) }, word),
        ...(r() < 0.16 ? ['common'] : []),
        ...(r() < 0.01 ? ['often'] : []),
      ].join(' ');
      const body = Array.from({ length: int(r, 3, r() < 0.1 ? 120 : 30) }, () =>
        r() < 0.04 ? 'common' : r() < 0.03 ? 'often' : word(),
      );
      if (r() < 0.4) body.push('common');
      if (r() < 0.25) body.push('often');
      // rare0..rare49: one or two docs each per segment
      if (r() < 0.02) body.push(`rare${int(r, 0, 49)}`);
      const acl = Array.from({ length: int(r, 1, 3) }, () => `g${Math.floor(r() * r() * 60)}`);
      index.writer.add({ key: `d${id++}`, language: 'en', text: { title, body: body.join(' ') }, keywords: { acl } });
    }
    for (let k = 0; k < 60; k++) index.writer.delete(`d${int(r, 0, id - 1)}`);
    await index.writer.commit();
  }
  return { index, r, word };
}

function words(terms: string[]): ParsedQuery {
  return {
    text: '',
    language: 'en',
    clauses: terms.map((t) => ({ kind: 'word', occur: 'should', word: { text: t, terms: [t], parts: [] } })),
  };
}

test('common words under sparse cached filters: pruned equals exhaustive, with and without rarer words', async () => {
  for (const seed of [12, 13]) {
    const { index, r, word } = await sparseIndex(seed);
    const segs = [...index.reader.segments()];
    assert.ok(segs.length >= 3);
    const cache = new FilterCache();
    const fast = new Searcher(segs, { schema, generation: 1, filterCache: cache });
    const slow = new Searcher(segs, { schema, generation: 1, pruning: false });
    let pruned = 0;
    for (let q = 0; q < 60; q++) {
      // 4-10 tokens out of 60 (popular ones included at times): a few to 25 % of the docs.
      const filter: Filter = {
        keyword: 'acl',
        anyOf: Array.from({ length: int(r, 4, 10) }, () => `g${r() < 0.2 ? int(r, 0, 5) : int(r, 10, 59)}`),
      };
      const shape = q % 5;
      const common = q % 2 === 0 ? 'common' : 'often';
      let query: ParsedQuery;
      if (shape === 0) query = words([common]);
      else if (shape === 1) query = words(q % 3 === 0 ? [common, word()] : [`rare${int(r, 0, 49)}`, common]);
      else if (shape === 2) query = words([`w${int(r, 150, 299)}`, common, word()]);
      else if (shape === 3) {
        // an alternative group (a MaxScorer clause) next to the common word
        query = words([common]);
        query.clauses.push({
          kind: 'word',
          occur: 'should',
          word: { text: 'x', terms: [`w${int(r, 100, 299)}`, `w${int(r, 0, 20)}`], parts: [] },
        });
      } else query = words([word(), common, `w${int(r, 200, 299)}`]);
      const limit = r() < 0.5 ? int(r, 1, 3) : int(r, 4, 12);
      const want = slow.search({ query, filter, limit });
      for (let rep = 0; rep < 3; rep++) {
        const got = fast.search({ query, filter, limit });
        assert.deepEqual(
          got.hits.map((h) => [h.key, h.score]),
          want.hits.map((h) => [h.key, h.score]),
          `seed ${seed} query ${JSON.stringify(query.clauses.map((c) => (c.kind === 'word' ? c.word.terms : [])))} filter ${JSON.stringify(filter)} limit ${limit} rep ${rep}`,
        );
        if (!got.totalIsExact) pruned++;
        else assert.equal(got.total, want.total);
      }
    }
    assert.ok(pruned > 90, `pruning happened in ${pruned} of 180 searches`);
    await index.close();
  }
});
