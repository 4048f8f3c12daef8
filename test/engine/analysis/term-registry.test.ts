/**
 * The analyzer's term registry is bounded: when it is replaced (a new epoch, here forced by a
 * tiny limit, also between two fields of one document), analysis results and the indexes built
 * from them must not change: same terms, positions, postings, scores and SimHash signatures.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, analyzeTerms, TermStream } from '../../../engine/analysis/index.ts';
import { setTermRegistryLimit, TERM_REGISTRY_LIMIT } from '../../../engine/analysis/analyzer.ts';
import { openIndex, MemoryDirectory, type Index, type IndexDocument } from '../../../engine/index.ts';

after(() => setTermRegistryLimit(TERM_REGISTRY_LIMIT));

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const rand = rng(42);
const vocab = Array.from({ length: 1500 }, (_, i) => `w${i.toString(36)}ing`);
const german = ['Urlaubsantrag', 'Datenschutzbeauftragter', 'Häuser', 'Straße', 'Antrag', 'Urlaub'];
function text(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rand() < 0.1 ? 'the' : vocab[Math.floor(rand() * vocab.length)]);
  return out.join(' ');
}
const docs: IndexDocument[] = Array.from({ length: 300 }, (_, i) => ({
  key: `d${i}`,
  language: i % 5 === 0 ? 'de' : 'en',
  text: { title: text(3), body: text(30) + (i % 5 === 0 ? ' ' + german.join(' ') : ' foo-bar.baz') },
}));

async function build(limit: number): Promise<Index> {
  setTermRegistryLimit(limit);
  const index = await openIndex({
    directory: new MemoryDirectory(),
    schema: { textFields: { title: { boost: 2 }, body: {} }, keywordFields: [], numericFields: [] },
    merge: false,
    maxBufferedTokens: 2000,
  });
  for (const d of docs) index.writer.add(d);
  await index.writer.commit();
  setTermRegistryLimit(TERM_REGISTRY_LIMIT);
  return index;
}

describe('term registry epochs', () => {
  it('analyze() and analyzeTerms() agree across registry replacements', () => {
    const sample = docs.slice(0, 40).map((d) => [d.text.body, d.language!] as const);
    const expected = sample.map(([t, l]) => analyze(t, l));
    setTermRegistryLimit(25);
    try {
      const stream = new TermStream();
      sample.forEach(([t, l], i) => {
        assert.deepEqual(analyze(t, l), expected[i]);
        analyzeTerms(t, l, stream);
        const terms = Array.from(stream.ids.subarray(0, stream.count), (id) => stream.strings[id]);
        assert.deepEqual(
          terms,
          expected[i].map((tok) => tok.term),
        );
        assert.deepEqual(
          Array.from(stream.positions.subarray(0, stream.count)),
          expected[i].map((tok) => tok.position),
        );
      });
    } finally {
      setTermRegistryLimit(TERM_REGISTRY_LIMIT);
    }
  });

  it('builds the same index whether or not the registry is replaced while indexing', async () => {
    const a = await build(TERM_REGISTRY_LIMIT);
    const b = await build(40);
    const sa = a.reader.searcher();
    const sb = b.reader.searcher();
    for (const q of [...vocab.slice(0, 60), 'antrag', 'urlaub', 'haus', 'foo-bar.baz', '"w1ing w2ing"']) {
      const ra = sa.search({ query: q, language: 'en', limit: 20 });
      const rb = sb.search({ query: q, language: 'en', limit: 20 });
      assert.equal(rb.total, ra.total, q);
      assert.deepEqual(
        rb.hits.map((h) => [h.key, h.score]),
        ra.hits.map((h) => [h.key, h.score]),
        q,
      );
    }
    const segsA = a.reader.segments();
    const segsB = b.reader.segments();
    assert.ok(segsA.length > 1, 'several segments');
    assert.equal(segsB.length, segsA.length);
    for (let s = 0; s < segsA.length; s++) {
      assert.equal(segsB[s].maxDoc, segsA[s].maxDoc);
      for (let d = 0; d < segsA[s].maxDoc; d++) {
        assert.equal(segsB[s].signature(d), segsA[s].signature(d));
        assert.deepEqual(segsB[s].stored(d), segsA[s].stored(d));
      }
    }
    await a.close();
    await b.close();
  });
});
