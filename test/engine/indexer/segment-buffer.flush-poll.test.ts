/**
 * Segment buffer flush task (what the index writer polls from its adds): while the stored blocks
 * go through the compression worker, poll() returns null until, without an event-loop turn, it
 * returns the complete segment, the same object `done` resolves with; it holds every doc's stored text and
 * the same postings as a flush awaited on the event loop.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SegmentBuffer, type AnalyzedDoc, type FlushedSegment } from '../../../engine/indexer/segment-buffer.ts';
import { SegmentCore, SegmentView } from '../../../engine/segment/segment-reader.ts';
import { concatChunks } from '../../../engine/segment/segment-writer.ts';
import { compressorWorkerRunning, START_BYTES } from '../../../engine/store/compressor.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';

function makeDoc(i: number): AnalyzedDoc {
  const words = Array.from({ length: 300 }, (_, p) => `w${(i * 7 + p * 13) % 997}`);
  const tokens = words.map((term, position) => ({ term, position, start: 0, end: 0 }));
  return {
    key: `k${i}`,
    language: 'en',
    text: { body: `${i} ${words.join(' ')}` },
    tokens: { body: tokens },
    keywords: {},
    numbers: {},
    stored: { n: i },
  };
}

function fill(docs: AnalyzedDoc[]): SegmentBuffer {
  const b = new SegmentBuffer();
  for (const d of docs) b.add(d);
  return b;
}

function open(seg: FlushedSegment, id: string): SegmentView {
  const view = new SegmentView(new SegmentCore(concatChunks(seg.chunks, seg.size), `${id}.seg`), null, 0);
  seg.recycle();
  return view;
}

function docsOf(seg: SegmentView, term: string): number[] {
  const it = seg.postings('body', term, false)!;
  const out: number[] = [];
  for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) out.push(d);
  return out;
}

describe('segment buffer flush task', () => {
  const docs: AnalyzedDoc[] = [];
  for (let i = 0, chars = 0; chars < 2 * START_BYTES; i++) {
    docs.push(makeDoc(i));
    chars += docs[i].text.body.length;
  }

  it('poll() completes the segment without an event-loop turn once the worker is done', async () => {
    const b = fill(docs);
    assert.equal(compressorWorkerRunning(), true, 'stored blocks went through the compression worker');
    const task = b.flush('s1');
    let seg = task.poll();
    const deadline = Date.now() + 20_000;
    while (seg === null && Date.now() < deadline) seg = task.poll();
    assert.ok(seg, 'complete without yielding');
    assert.equal(task.poll(), seg);
    assert.equal(await task.done, seg, 'done resolves with the same segment');
    const view = open(seg, 's1');
    assert.equal(view.core.maxDoc, docs.length);
    for (let i = 0; i < docs.length; i += 37) {
      assert.equal(view.text(i).body, docs[i].text.body, `doc ${i} text`);
      assert.deepEqual(view.stored(i), { n: i });
    }
    const later = open(await fill(docs).flush('s2').done, 's2');
    for (const term of ['w0', 'w13', 'w996']) assert.deepEqual(docsOf(view, term), docsOf(later, term), term);
  });
});
