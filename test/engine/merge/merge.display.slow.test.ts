/**
 * Display fields (schema `displayFields`) across flushes and merges: flushed and merged segments
 * carry a display store aligned with their docs (deleted docs purged), segments written without
 * one (by an index opened without display fields) still answer Searcher.storedFields from the
 * stored payload, and either way storedFields gives exactly the stored values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory, type EngineEvent, type Index, type IndexSchema } from '../../../engine/index.ts';
import { EngineError } from '../../../engine/errors.ts';
import { SCHEMA, makeDoc } from '../helpers/storage-fixtures.ts';

const DISPLAY = ['title', 'link'];
const WITH_DISPLAY: IndexSchema = { ...SCHEMA, displayFields: DISPLAY };

function stored(i: number): Record<string, unknown> {
  const s: Record<string, unknown> = { n: i, title: `Titel ${i} ä😀 "q" \u0001`, body: 'not a display field' };
  if (i % 3 !== 0) s.link = `https://example.org/${i}`;
  if (i % 17 === 0) s.title = 'long '.repeat(300);
  return s;
}

async function addRounds(index: Index, from: number, to: number, rounds: number): Promise<void> {
  const per = Math.ceil((to - from) / rounds);
  for (let start = from; start < to; start += per) {
    for (let i = start; i < Math.min(to, start + per); i++) index.writer.add(makeDoc(i, { stored: stored(i) }));
    await index.writer.commit();
  }
}

/** storedFields of every live doc equals the stored values of those fields. */
function checkAll(index: Index, live: number[]): void {
  const s = index.reader.searcher();
  try {
    for (const i of live) {
      const hit = s.search({ query: `number ${i}`, limit: 50, language: 'en' }).hits.find((h) => h.key === `k${i}`);
      assert.ok(hit, `k${i} found`);
      const want = Object.fromEntries(DISPLAY.filter((f) => f in stored(i)).map((f) => [f, stored(i)[f]]));
      assert.deepEqual(s.storedFields(hit, DISPLAY), want, `k${i}`);
      assert.deepEqual(s.storedFields(hit, ['n', 'missing']), { n: i });
    }
  } finally {
    index.reader.release(s);
  }
}

describe('display fields across flushes and merges', () => {
  it('a merged segment keeps its display store aligned after deletions are purged', async () => {
    const index = await openIndex({
      directory: new MemoryDirectory(),
      schema: WITH_DISPLAY,
      merge: { floorSegmentBytes: 1 },
    });
    await addRounds(index, 0, 120, 3);
    for (let i = 0; i < 120; i += 5) index.writer.delete(`k${i}`);
    await index.forceMerge(1);
    const segs = index.reader.segments();
    assert.equal(segs.length, 1);
    assert.deepEqual(segs[0].core.meta.displayFields, DISPLAY);
    assert.equal(segs[0].core.display()?.maxDoc, segs[0].maxDoc);
    checkAll(
      index,
      Array.from({ length: 120 }, (_, i) => i).filter((i) => i % 5 !== 0),
    );
    await index.close();
  });

  it('segments written without display fields answer from the payload, and gain the store when merged', async () => {
    const dir = new MemoryDirectory();
    const plain = await openIndex({ directory: dir, schema: SCHEMA, merge: { floorSegmentBytes: 1 } });
    await addRounds(plain, 0, 60, 2);
    await plain.forceMerge(1);
    assert.equal(plain.reader.segments()[0].core.display(), null);
    await plain.close();

    const index = await openIndex({ directory: dir, schema: WITH_DISPLAY, merge: { floorSegmentBytes: 1 } });
    checkAll(
      index,
      Array.from({ length: 60 }, (_, i) => i),
    );
    await addRounds(index, 60, 90, 1); // a flushed segment, with its display store, beside the old one
    const flushed = index.reader.segments().find((s) => s.core.display() !== null);
    assert.equal(flushed?.core.display()?.maxDoc, 30);
    checkAll(
      index,
      Array.from({ length: 90 }, (_, i) => i),
    );
    await index.forceMerge(1);
    assert.deepEqual(index.reader.segments()[0].core.meta.displayFields, DISPLAY);
    checkAll(
      index,
      Array.from({ length: 90 }, (_, i) => i),
    );
    await index.close();
  });

  it('idle compaction rewrites a lone segment without the display store once', async () => {
    const dir = new MemoryDirectory();
    const plain = await openIndex({ directory: dir, schema: SCHEMA, merge: { floorSegmentBytes: 1 } });
    await addRounds(plain, 0, 40, 1);
    await plain.close();

    const events: EngineEvent[] = [];
    let settled!: () => void;
    const compacted = new Promise<void>((r) => (settled = r));
    const index = await openIndex({
      directory: dir,
      schema: WITH_DISPLAY,
      compaction: { idleMs: 20 },
      log: (e) => {
        events.push(e);
        if (e.type === 'compacted') settled();
      },
    });
    const keepAlive = setInterval(() => undefined, 50); // the scheduler's idle timer does not hold the process
    const timeout = setTimeout(() => settled(), 20_000);
    await compacted;
    clearInterval(keepAlive);
    clearTimeout(timeout);
    const merges = events.filter((e) => e.type === 'merge');
    assert.equal(merges.length, 1, JSON.stringify(merges));
    assert.deepEqual(index.reader.segments()[0].core.meta.displayFields, DISPLAY);
    checkAll(
      index,
      Array.from({ length: 40 }, (_, i) => i),
    );
    await index.close();
  });

  it('rejects invalid display fields', async () => {
    for (const displayFields of [['ok', 'ok'], ['bad name'], 'title'] as unknown[]) {
      await assert.rejects(
        openIndex({ directory: new MemoryDirectory(), schema: { ...SCHEMA, displayFields } as IndexSchema }),
        (e) => e instanceof EngineError && e.code === 'INVALID_DOCUMENT',
        JSON.stringify(displayFields),
      );
    }
  });
});
