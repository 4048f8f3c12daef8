/**
 * Whole-segment round trip: documents buffered with synthetic tokens, flushed into a segment
 * file, read back through the SegmentReader contract (term dictionary with prefixes and
 * non-ASCII terms, postings, norms, keyword and numeric columns, keys, stored fields,
 * signatures), plus corruption detection.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SegmentBuffer, type AnalyzedDoc } from '../../../engine/indexer/segment-buffer.ts';
import { SegmentCore, SegmentView } from '../../../engine/segment/segment-reader.ts';
import { concatChunks } from '../../../engine/segment/segment-writer.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';
import { EngineError } from '../../../engine/errors.ts';
import { simhash } from '../../../engine/duplicates/simhash.ts';

function tokens(text: string) {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((term, position) => ({ term, position, start: 0, end: 0 }));
}

function doc(i: number, body: string, extra: Partial<AnalyzedDoc> = {}): AnalyzedDoc {
  return {
    key: `doc-${i}`,
    language: 'de',
    text: { body },
    tokens: { body: tokens(body) },
    keywords: { acl: [`user${i % 3}`, 'everyone'], ds: [i % 2 ? 'odd' : 'even'] },
    numbers: { n: i * 1.5 },
    stored: { i, title: `Titel ${i}` },
    ...extra,
  };
}

async function build(docs: AnalyzedDoc[]): Promise<SegmentView> {
  const b = new SegmentBuffer();
  for (const d of docs) b.add(d);
  const seg = await b.flush('s000042').done;
  return new SegmentView(new SegmentCore(concatChunks(seg.chunks, seg.size), 's000042.seg'), null, 0);
}

const words = ['apfel', 'apfelbaum', 'äpfel', 'birne', 'zebra', 'straße', '日本', 'b', 'a'];

describe('segment round trip', async () => {
  const docs: AnalyzedDoc[] = [];
  for (let i = 0; i < 700; i++) {
    const body = Array.from({ length: 3 + (i % 11) }, (_, k) => words[(i * 7 + k * k) % words.length]).join(' ');
    docs.push(doc(i, body));
  }
  docs.push(doc(700, 'x', { keywords: {}, numbers: {}, tokens: { body: [] }, text: { body: '' } }));
  const seg = await build(docs);

  it('knows its docs and terms in sorted order', () => {
    assert.equal(seg.maxDoc, 701);
    assert.equal(seg.numDocs, 701);
    const expected = [...new Set(docs.flatMap((d) => d.tokens.body.map((t) => t.term)))].sort();
    assert.deepEqual([...seg.terms('body')], expected);
    assert.deepEqual([...seg.terms('body', 'apfel')], ['apfel', 'apfelbaum']);
    assert.deepEqual([...seg.terms('body', 'q')], []);
    assert.deepEqual([...seg.terms('nofield')], []);
  });

  it('returns postings, stats and field lengths equal to a naive inversion', () => {
    for (const w of [...words, 'missing']) {
      const expectedDocs = docs
        .map((d, i) => [i, d.tokens.body.filter((t) => t.term === w).map((t) => t.position)] as const)
        .filter(([, p]) => p.length > 0);
      const it = seg.postings('body', w, true);
      if (expectedDocs.length === 0) {
        assert.equal(it, null);
        assert.equal(seg.termStats('body', w), null);
        continue;
      }
      assert.ok(it);
      const got: [number, number[]][] = [];
      for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) got.push([d, [...it.positions()]]);
      assert.deepEqual(
        got,
        expectedDocs.map(([d, p]) => [d, p]),
      );
      assert.deepEqual(seg.termStats('body', w), {
        docFreq: expectedDocs.length,
        totalTermFreq: expectedDocs.reduce((s, [, p]) => s + p.length, 0),
      });
    }
    const fs = seg.fieldStats('body')!;
    assert.equal(fs.docCount, 700);
    assert.equal(
      fs.sumTotalTermFreq,
      docs.reduce((s, d) => s + d.tokens.body.length, 0),
    );
    assert.equal(seg.fieldLength('body', 5), docs[5].tokens.body.length);
    assert.equal(seg.fieldLength('body', 700), 0);
  });

  it('serves keyword columns, inverted keyword lists and numeric columns', () => {
    assert.deepEqual(seg.keywords('acl', 4), ['everyone', 'user1']);
    assert.deepEqual(seg.keywords('acl', 700), []);
    assert.deepEqual(seg.keywords('nope', 4), []);
    const it = seg.keywordDocs('acl', 'user2')!;
    const got: number[] = [];
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) got.push(d);
    assert.deepEqual(
      got,
      docs.map((_, i) => i).filter((i) => i < 700 && i % 3 === 2),
    );
    const it2 = seg.keywordDocs('acl', 'user0')!;
    assert.equal(it2.advance(301), 303);
    assert.equal(it2.advance(699), 699);
    assert.equal(it2.advance(700), NO_MORE_DOCS);
    assert.equal(seg.keywordDocs('acl', 'nobody'), null);
    assert.equal(seg.numeric('n', 10), 15);
    assert.equal(seg.numeric('n', 700), undefined);
    assert.equal(seg.numeric('nope', 1), undefined);
  });

  it('returns keys, stored payloads, text, language and signatures', () => {
    assert.equal(seg.key(123), 'doc-123');
    assert.deepEqual(seg.stored(123), { i: 123, title: 'Titel 123' });
    assert.deepEqual(seg.text(123), { body: docs[123].text.body });
    assert.equal(seg.language(123), 'de');
    assert.equal(seg.findKey('doc-456'), 456);
    assert.equal(seg.findKey('doc-9999'), -1);
    assert.equal(seg.signature(17), simhash(docs[17].tokens.body.map((t) => t.term)));
  });

  it('detects a flipped byte with CORRUPT_INDEX', async () => {
    const b = new SegmentBuffer();
    b.add(doc(1, 'hello world'));
    const s = await b.flush('s000001').done;
    const bytes = concatChunks(s.chunks, s.size);
    bytes[100] ^= 0xff;
    assert.throws(
      () => new SegmentCore(bytes, 's000001.seg'),
      (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX',
    );
    assert.throws(
      () => new SegmentCore(bytes.subarray(0, 10), 's000001.seg'),
      (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX',
    );
  });
});
