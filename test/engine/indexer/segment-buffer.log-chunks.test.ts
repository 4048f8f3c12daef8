/**
 * Segment buffer token log across chunks: a buffer holding several log chunks' worth of tokens
 * (including one field longer than a whole chunk) and a second buffer reusing the pooled chunks
 * both flush to postings equal to a naive inversion.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SegmentBuffer, type AnalyzedDoc } from '../../../engine/indexer/segment-buffer.ts';
import { LOG_CHUNK_INTS } from '../../../engine/indexer/buffer-pools.ts';
import { SegmentCore, SegmentView } from '../../../engine/segment/segment-reader.ts';
import { concatChunks } from '../../../engine/segment/segment-writer.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';

const VOCAB = Array.from({ length: 50 }, (_, i) => `w${i}`);

function makeDoc(i: number, length: number): AnalyzedDoc {
  const tokens = Array.from({ length }, (_, p) => ({
    term: VOCAB[(i * 31 + p * p) % VOCAB.length],
    position: p,
    start: 0,
    end: 0,
  }));
  return {
    key: `k${i}`,
    language: 'en',
    text: { body: '' },
    tokens: { body: tokens },
    keywords: {},
    numbers: {},
    stored: {},
  };
}

async function flushed(docs: AnalyzedDoc[], id: string): Promise<SegmentView> {
  const b = new SegmentBuffer();
  for (const d of docs) b.add(d);
  assert.equal(
    b.tokenCount,
    docs.reduce((n, d) => n + d.tokens.body.length, 0),
  );
  const seg = await b.flush(id).done;
  return new SegmentView(new SegmentCore(concatChunks(seg.chunks, seg.size), `${id}.seg`), null, 0);
}

function assertNaive(seg: SegmentView, docs: AnalyzedDoc[]): void {
  const expected = new Map<string, [number, number[]][]>();
  docs.forEach((d, i) => {
    for (const t of d.tokens.body) {
      let list = expected.get(t.term);
      if (!list) expected.set(t.term, (list = []));
      const last = list[list.length - 1];
      if (last && last[0] === i) last[1].push(t.position);
      else list.push([i, [t.position]]);
    }
  });
  for (const w of VOCAB) {
    const it = seg.postings('body', w, true);
    assert.ok(it, w);
    const got: [number, number[]][] = [];
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) got.push([d, [...it.positions()]]);
    assert.deepEqual(got, expected.get(w), w);
  }
}

describe('segment buffer token log chunks', () => {
  const tokensPerChunk = Math.floor(LOG_CHUNK_INTS / 3);

  it('inverts a buffer spanning several chunks, with one field longer than a chunk', async () => {
    const docs: AnalyzedDoc[] = [];
    for (let i = 0; i < 400; i++) docs.push(makeDoc(i, 900 + (i % 7) * 100));
    docs.splice(150, 0, makeDoc(9999, tokensPerChunk + 5000));
    for (let i = 0; i < docs.length; i++) docs[i].key = `k${i}`;
    assertNaive(await flushed(docs, 's000001'), docs);
  });

  it('reuses pooled chunks for the next buffer without mixing old tokens in', async () => {
    const first: AnalyzedDoc[] = [];
    for (let i = 0; i < 300; i++) first.push(makeDoc(i, 1200));
    await flushed(first, 's000002');
    const second: AnalyzedDoc[] = [];
    for (let i = 0; i < 50; i++) second.push(makeDoc(i + 7, 40 + i));
    assertNaive(await flushed(second, 's000003'), second);
  });
});
