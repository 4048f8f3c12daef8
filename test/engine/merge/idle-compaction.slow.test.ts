/**
 * Idle compaction: the policy (smallest first, the largest segment rewritten only when the rest
 * is worth it, size cap), and the scheduler (a quiet writer's index merged down with the same
 * live documents and hits, a busy writer's left alone, off by default).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory, type EngineEvent } from '../../../engine/index.ts';
import { findIdleMerge } from '../../../engine/merge/idle-compaction.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

const MB = 1024 * 1024;
const seg = (id: string, mb: number, dels = 0) => ({ id, sizeBytes: mb * MB, maxDoc: 1000, delCount: dels });
const opts = { maxSegments: 1, minRatio: 0.1, maxMergeAtOnce: 10, maxMergedSegmentBytes: 2048 * MB };

describe('idle compaction policy', () => {
  it('merges the smallest segments first, at most maxMergeAtOnce, and nothing at the target', () => {
    const many = [seg('big', 100), ...Array.from({ length: 14 }, (_, i) => seg(`s${i}`, i + 1))];
    assert.deepEqual(
      findIdleMerge(many, opts),
      Array.from({ length: 10 }, (_, i) => `s${i}`),
    );
    // only as many as reaching maxSegments takes
    assert.deepEqual(findIdleMerge([seg('a', 5), seg('b', 1), seg('c', 3)], { ...opts, maxSegments: 2 }), ['b', 'c']);
    assert.deepEqual(findIdleMerge([seg('a', 5), seg('b', 1), seg('c', 3)], opts), ['b', 'c', 'a']);
    assert.equal(findIdleMerge([seg('a', 5)], opts), null);
    assert.equal(findIdleMerge([seg('a', 5), seg('b', 1)], { ...opts, maxSegments: 2 }), null);
  });

  it('rewrites a segment only with smaller ones holding minRatio of it (live bytes)', () => {
    assert.equal(findIdleMerge([seg('big', 100), seg('small', 9)], opts), null);
    assert.deepEqual(findIdleMerge([seg('big', 100), seg('small', 10)], opts), ['small', 'big']);
    // slivers merge among themselves first; the large pair is merged on its own
    assert.deepEqual(findIdleMerge([seg('big', 100), seg('a', 0.5), seg('b', 0.6)], opts), ['a', 'b']);
    assert.deepEqual(findIdleMerge([seg('big', 100), seg('mid', 50), seg('tiny', 1)], opts), ['mid', 'big']);
    // deleted docs shrink a segment's live size
    assert.deepEqual(findIdleMerge([seg('big', 100, 950), seg('small', 1)], opts), ['small', 'big']);
  });

  it('keeps a merged segment under maxMergedSegmentBytes', () => {
    const capped = { ...opts, maxMergedSegmentBytes: 10 * MB };
    assert.deepEqual(findIdleMerge([seg('a', 4), seg('b', 5), seg('c', 6)], capped), ['a', 'b']);
    assert.equal(findIdleMerge([seg('a', 8), seg('b', 9)], capped), null);
  });
});

/** Resolves with the first event of `type` (a safety timeout fails the test instead of hanging it). */
function nextEvent(events: EngineEvent[], type: EngineEvent['type'], waiters: (() => void)[]): Promise<EngineEvent> {
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error(`no ${type} event`)), 30_000);
    const check = () => {
      const e = events.find((x) => x.type === type);
      if (!e) return false;
      clearTimeout(timeout);
      resolve(e);
      return true;
    };
    const wait = () => {
      if (!check()) waiters.push(wait);
    };
    wait();
  });
}

describe('idle compaction in the merge scheduler', () => {
  it('merges a quiet index down to one segment with the same live docs and matches', async () => {
    const events: EngineEvent[] = [];
    const waiters: (() => void)[] = [];
    const index = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      // a tier budget that never merges, so only compaction can
      merge: { segmentsPerTier: 100 },
      compaction: { idleMs: 30 },
      log: (e) => {
        events.push(e);
        for (const w of waiters.splice(0)) w();
      },
    });
    for (let round = 0; round < 6; round++) {
      for (let i = round * 40; i < round * 40 + 40; i++) index.writer.add(makeDoc(i));
      if (round === 5) for (let i = 0; i < 240; i += 7) index.writer.delete(`k${i}`); // under the tiered policy's delete pressure
      await index.writer.commit();
    }
    assert.equal(index.reader.segments().length, 6);
    const before = index.reader.searcher();
    // the same matches (scores move: purged deletions leave the collection statistics)
    const matches = (s: typeof before) =>
      s
        .search({ query: 'w1 w2', limit: 1000, language: 'en' })
        .hits.map((h) => h.key)
        .sort();
    const hits = matches(before);
    assert.ok(hits.length > 0);
    const docs = liveDocs(index);
    index.reader.release(before);

    const done = await nextEvent(events, 'compacted', waiters);
    assert.equal(done.type === 'compacted' && done.segments, 1);
    assert.ok(events.some((e) => e.type === 'merge' && e.idle === true));
    const segs = index.reader.segments();
    assert.equal(segs.length, 1);
    assert.equal(segs[0].maxDoc, docs.size, 'deleted docs purged');
    assert.deepEqual(liveDocs(index), docs);
    const after = index.reader.searcher();
    assert.deepEqual(matches(after), hits);
    index.reader.release(after);
    await index.close();
  });

  it('keeps the adds and deletes made while a compaction merge runs, and stops compacting for them', async () => {
    const events: EngineEvent[] = [];
    const index = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      merge: { segmentsPerTier: 100 },
      compaction: { idleMs: 30 },
      log: (e) => events.push(e),
    });
    for (let round = 0; round < 4; round++) {
      for (let i = round * 200; i < round * 200 + 200; i++) index.writer.add(makeDoc(i));
      await index.writer.commit();
    }
    // wait until the compaction merge has taken its sources
    for (let t = 0; t < 3000 && !index.writer.segments.some((s) => s.merging); t++)
      await new Promise((r) => setTimeout(r, 5));
    assert.ok(
      index.writer.segments.some((s) => s.merging),
      'a compaction merge started',
    );
    for (let i = 0; i < 800; i += 10) index.writer.delete(`k${i}`);
    for (let i = 800; i < 850; i++) index.writer.add(makeDoc(i));
    await index.writer.commit();
    await index.waitForMerges();
    await index.writer.commit();
    const expected = Array.from({ length: 850 }, (_, i) => `k${i}`).filter((k, i) => i >= 800 || i % 10 !== 0);
    assert.deepEqual([...liveDocs(index).keys()].sort(), expected.sort());
    assert.ok(events.some((e) => e.type === 'merge' && e.idle === true));
    await index.close();
  });

  it('leaves an index alone while documents keep coming, and by default', async () => {
    const busyEvents: EngineEvent[] = [];
    const busy = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      merge: { segmentsPerTier: 100 },
      compaction: { idleMs: 2000 },
      log: (e) => busyEvents.push(e),
    });
    const quiet: EngineEvent[] = [];
    const off = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      merge: { segmentsPerTier: 100 },
      log: (e) => quiet.push(e),
    });
    for (let round = 0; round < 3; round++) {
      for (let i = round * 10; i < round * 10 + 10; i++) off.writer.add(makeDoc(i));
      await off.writer.commit();
    }
    for (let i = 0; i < 50; i++) {
      busy.writer.add(makeDoc(i));
      if (i % 10 === 9) await busy.writer.commit();
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(
      !busyEvents.some((e) => e.type === 'merge' || e.type === 'compacted'),
      'no compaction while writes arrive',
    );
    assert.equal(busy.reader.segments().length, 5);
    assert.ok(
      !quiet.some((e) => e.type === 'merge' || e.type === 'compacted'),
      'compaction is off unless idleMs is set',
    );
    assert.equal(off.reader.segments().length, 3);
    await busy.close();
    await off.close();
  });
});
