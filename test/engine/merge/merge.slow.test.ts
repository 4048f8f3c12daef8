/**
 * Background merges: the tiered policy merges small segments, deleted docs are purged,
 * deletions made while a merge runs are carried over, live documents are unchanged, and a
 * searcher taken before the merge keeps working on its snapshot (its segment files are kept
 * until it is released).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory, type EngineEvent } from '../../../engine/index.ts';
import { findMerge, DEFAULT_MERGE_POLICY } from '../../../engine/merge/tiered-policy.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

describe('tiered merge policy', () => {
  it('merges nothing while the tier budget holds, then the smallest balanced window', () => {
    const seg = (id: string, mb: number, dels = 0) => ({
      id,
      sizeBytes: mb * 1024 * 1024,
      maxDoc: 1000,
      delCount: dels,
    });
    assert.equal(findMerge([seg('a', 10), seg('b', 10), seg('c', 10)]), null);
    const many = Array.from({ length: 20 }, (_, i) => seg(`s${i}`, 1));
    const picked = findMerge([seg('big', 60), ...many]);
    assert.ok(picked && picked.length >= 2 && !picked.includes('big'), String(picked));
    const deleted = findMerge([seg('x', 50, 600), seg('y', 50, 600)], DEFAULT_MERGE_POLICY);
    assert.deepEqual(deleted?.sort(), ['x', 'y']);
  });
});

describe('background merges', () => {
  it('purge deleted docs without disturbing live docs or an older searcher', async () => {
    const dir = new MemoryDirectory();
    const index = await openIndex({
      directory: dir,
      schema: SCHEMA,
      merge: { floorSegmentBytes: 1, segmentsPerTier: 2, maxMergeAtOnce: 10 },
    });
    const writer = index.writer;
    for (let round = 0; round < 6; round++) {
      for (let i = round * 50; i < round * 50 + 50; i++) writer.add(makeDoc(i));
      await writer.commit();
      await index.waitForMerges();
    }
    for (let i = 0; i < 300; i += 4) writer.delete(`k${i}`);
    await writer.commit();
    const old = index.reader.searcher();
    const oldSegments = index.reader.segments();
    const oldHits = old.search({ query: 'w1', limit: 100, language: 'en' });
    // deletes during the merge that the commit above triggers
    for (let i = 1; i < 300; i += 4) writer.delete(`k${i}`);
    await writer.commit();
    await index.waitForMerges();
    await writer.commit();

    const expected = Array.from({ length: 300 }, (_, i) => i).filter((i) => i % 4 > 1);
    const docs = liveDocs(index);
    assert.deepEqual([...docs.keys()].sort(), expected.map((i) => `k${i}`).sort());
    const segs = index.reader.segments();
    assert.ok(segs.length < oldSegments.length || segs.length === 1, 'segments were merged');
    const purged = segs.reduce((s, v) => s + v.maxDoc, 0);
    assert.ok(purged < 300, `deleted docs purged (maxDoc total ${purged})`);

    // the old searcher still sees its snapshot
    assert.deepEqual(old.search({ query: 'w1', limit: 100, language: 'en' }), oldHits);
    assert.equal(old.get('k1')?.key, 'k1');
    const files = await dir.listAll();
    for (const s of oldSegments) assert.ok(files.includes(`${s.id}.seg`), `${s.id} kept for the old searcher`);
    index.reader.release(old);
    writer.add(makeDoc(1000));
    await writer.commit();
    const after = await dir.listAll();
    const live = new Set(index.reader.segments().map((s) => `${s.id}.seg`));
    for (const f of after.filter((f) => f.endsWith('.seg'))) assert.ok(live.has(f), `${f} removed once unused`);
    await index.close();
  });
});

describe('forceMerge', () => {
  it('merges down to one segment holding exactly the live docs', async () => {
    const index = await openIndex({ directory: new MemoryDirectory(), schema: SCHEMA, ramBufferBytes: 2048 });
    for (let i = 0; i < 400; i++) index.writer.add(makeDoc(i));
    for (let i = 0; i < 400; i += 3) index.writer.delete(`k${i}`);
    await index.writer.commit();
    assert.ok(index.reader.segments().length > 1);
    await index.forceMerge(1);
    const segs = index.reader.segments();
    assert.equal(segs.length, 1);
    assert.equal(segs[0].maxDoc, segs[0].numDocs);
    assert.equal(segs[0].numDocs, 400 - 134);
    const w1Live = Array.from({ length: 400 }, (_, i) => i).filter((i) => i % 10 === 1 && i % 3 !== 0).length;
    assert.equal(index.reader.searcher().search({ query: '"w1"', limit: 100, language: 'en' }).total, w1Live); // quoted: no parts
    await index.close();
  });

  it('runs merges on the merge thread with the same live documents, stored fields and matches', async () => {
    const events: EngineEvent[] = [];
    const index = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      ramBufferBytes: 2048,
      log: (e) => events.push(e),
    });
    for (let i = 0; i < 300; i++) index.writer.add(makeDoc(i));
    for (let i = 0; i < 300; i += 7) index.writer.delete(`k${i}`);
    await index.writer.commit();
    const before = liveDocs(index);
    const matches = (q: string) =>
      new Set(
        index.reader
          .searcher()
          .search({ query: q, limit: 1000, language: 'en' })
          .hits.map((h) => h.key),
      );
    const w3 = matches('w3');
    assert.ok(index.reader.segments().length > 1 && w3.size > 0);
    await index.forceMerge(1);
    const merges = events.filter((e) => e.type === 'merge');
    assert.ok(merges.length > 0, 'merged');
    for (const m of merges) assert.equal(m.type === 'merge' && m.thread, true, 'merged on the thread');
    assert.equal(index.reader.segments().length, 1);
    assert.deepEqual(liveDocs(index), before);
    assert.deepEqual(matches('w3'), w3);
    await index.close();
  });
});
