/**
 * IndexWriter / IndexReader behaviour through the public API, on both directories:
 * visibility at commit, update by key, delete, deleteByKeyword, reopen, commit coalescing,
 * periodic commits, validation errors and closed-state errors.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex, FsDirectory, MemoryDirectory, EngineError, type Directory } from '../../../engine/index.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

const tmp: string[] = [];
after(async () => {
  for (const p of tmp) await rm(p, { recursive: true, force: true });
});

const directories: [string, () => Promise<Directory>][] = [
  ['memory', async () => new MemoryDirectory()],
  [
    'fs',
    async () => {
      const p = await mkdtemp(join(tmpdir(), 'engine-writer-'));
      tmp.push(p);
      return FsDirectory.open(p);
    },
  ],
];

for (const [name, makeDir] of directories) {
  describe(`IndexWriter on ${name} directory`, () => {
    it('keeps added docs invisible until commit, then serves them', async () => {
      const index = await openIndex({ directory: await makeDir(), schema: SCHEMA, merge: false });
      for (let i = 0; i < 50; i++) index.writer.add(makeDoc(i));
      assert.equal(index.writer.pendingDocs, 50);
      assert.equal(liveDocs(index).size, 0);
      assert.equal(index.reader.searcher().numDocs, 0);
      const info = await index.writer.commit();
      assert.equal(info.generation, 1);
      assert.equal(info.docCount, 50);
      assert.equal(index.writer.pendingDocs, 0);
      assert.equal(index.reader.generation, 1);
      const docs = liveDocs(index);
      assert.equal(docs.size, 50);
      assert.deepEqual(docs.get('k7')?.stored, { n: 7 });
      const s = index.reader.searcher();
      assert.equal(s.numDocs, 50);
      assert.equal(s.get('k7')?.key, 'k7');
      assert.equal(s.search({ query: '"w7"', limit: 10, language: 'en' }).total, 5); // quoted: the term itself, not its parts w and 7
      await index.close();
    });

    it('replaces a doc added again under the same key, in the buffer and across commits', async () => {
      const index = await openIndex({ directory: await makeDir(), schema: SCHEMA, merge: false });
      index.writer.add(makeDoc(1));
      index.writer.add(makeDoc(1, { stored: { n: 'second' } }));
      await index.writer.commit();
      assert.deepEqual(liveDocs(index).get('k1')?.stored, { n: 'second' });
      index.writer.add(makeDoc(1, { stored: { n: 'third' } }));
      await index.writer.commit();
      const docs = liveDocs(index);
      assert.equal(docs.size, 1);
      assert.deepEqual(docs.get('k1')?.stored, { n: 'third' });
      await index.close();
    });

    it('deletes by key and by keyword, in committed segments and in the buffer', async () => {
      const index = await openIndex({ directory: await makeDir(), schema: SCHEMA, merge: false });
      for (let i = 0; i < 30; i++) index.writer.add(makeDoc(i));
      await index.writer.commit();
      for (let i = 30; i < 60; i++) index.writer.add(makeDoc(i));
      index.writer.delete('k3');
      index.writer.delete('k33');
      index.writer.delete('absent');
      index.writer.deleteByKeyword('ds', 'ds1');
      const before = liveDocs(index);
      assert.equal(before.size, 30, 'deletes are invisible until commit');
      const info = await index.writer.commit();
      const docs = liveDocs(index);
      const expected = Array.from({ length: 60 }, (_, i) => i).filter((i) => i !== 3 && i !== 33 && i % 3 !== 1);
      assert.deepEqual([...docs.keys()].sort(), expected.map((i) => `k${i}`).sort());
      assert.equal(info.docCount, expected.length);
      assert.equal(index.reader.searcher().numDocs, expected.length);
      await index.close();
    });

    it('drops a segment from the commit once all its docs are deleted', async () => {
      const index = await openIndex({ directory: await makeDir(), schema: SCHEMA, merge: false });
      for (let i = 0; i < 10; i++) index.writer.add(makeDoc(i));
      await index.writer.commit();
      index.writer.add(makeDoc(100));
      await index.writer.commit();
      assert.equal(index.reader.segments().length, 2);
      for (let i = 0; i < 10; i++) index.writer.delete(`k${i}`);
      const info = await index.writer.commit();
      assert.equal(info.docCount, 1);
      assert.equal(index.reader.segments().length, 1);
      assert.deepEqual([...liveDocs(index).keys()], ['k100']);
      await index.close();
    });

    it('reopens at the last commit with deletions and updates intact', async () => {
      const dir = await makeDir();
      const a = await openIndex({ directory: dir, schema: SCHEMA, merge: false, ramBufferBytes: 4096 });
      for (let i = 0; i < 200; i++) a.writer.add(makeDoc(i));
      await a.writer.commit();
      a.writer.delete('k10');
      a.writer.add(makeDoc(20, { stored: { n: 'updated' } }));
      await a.writer.commit();
      a.writer.add(makeDoc(999));
      assert.ok(a.reader.segments().length > 1, 'small RAM buffer flushed several segments');
      await a.close(); // commits k999 too
      const b = await openIndex({ directory: dir, schema: SCHEMA, merge: false });
      const docs = liveDocs(b);
      assert.equal(docs.size, 200);
      assert.ok(!docs.has('k10'));
      assert.ok(docs.has('k999'));
      assert.deepEqual(docs.get('k20')?.stored, { n: 'updated' });
      assert.equal(b.reader.generation, 3);
      await b.close();
    });

    it('coalesces concurrent commits and includes every earlier add', async () => {
      const index = await openIndex({ directory: await makeDir(), schema: SCHEMA, merge: false });
      index.writer.add(makeDoc(1));
      const c1 = index.writer.commit();
      index.writer.add(makeDoc(2));
      const c2 = index.writer.commit();
      index.writer.add(makeDoc(3));
      const c3 = index.writer.commit();
      const [i1, i2, i3] = await Promise.all([c1, c2, c3]);
      assert.equal(i1.generation, 1);
      assert.equal(i2.generation, 2);
      assert.equal(i3, i2, 'the third call joined the queued commit');
      assert.equal(i3.docCount, 3);
      assert.equal(liveDocs(index).size, 3);
      await index.close();
    });

    it('allows one open index per directory until it is closed', async () => {
      const dir = await makeDir();
      const a = await openIndex({ directory: dir, schema: SCHEMA });
      await assert.rejects(
        openIndex({ directory: dir, schema: SCHEMA }),
        (e) => e instanceof EngineError && e.code === 'LOCKED',
      );
      await a.close();
      const b = await openIndex({ directory: dir, schema: SCHEMA });
      await b.close();
    });

    it('rejects invalid documents with INVALID_DOCUMENT and use after close with CLOSED', async () => {
      const index = await openIndex({ directory: await makeDir(), schema: SCHEMA });
      const bad: unknown[] = [
        null,
        { key: '', text: {} },
        { key: 'x', text: { body: 5 } },
        { key: 'x', text: {}, keywords: { ds: 'notarray' } },
        { key: 'x', text: {}, numbers: { n: Number.NaN } },
        { key: 'x', text: {}, language: 'fr' },
        { key: 'x', text: { 'bad name': 'a' } },
      ];
      for (const d of bad) {
        assert.throws(
          () => index.writer.add(d as never),
          (e) => e instanceof EngineError && e.code === 'INVALID_DOCUMENT',
        );
      }
      assert.equal(index.writer.pendingDocs, 0);
      await index.close();
      assert.throws(
        () => index.writer.add(makeDoc(1)),
        (e) => e instanceof EngineError && e.code === 'CLOSED',
      );
      await assert.rejects(index.writer.commit(), (e) => e instanceof EngineError && e.code === 'CLOSED');
    });
  });
}

describe('periodic commits', () => {
  it('commits buffered docs every commitIntervalMs and notifies reader listeners', async () => {
    const index = await openIndex({ directory: new MemoryDirectory(), schema: SCHEMA, commitIntervalMs: 10 });
    const committed = new Promise<number>((resolve) => index.reader.onCommit((info) => resolve(info.docCount)));
    index.writer.add(makeDoc(1));
    index.writer.add(makeDoc(2));
    const keepAlive = setInterval(() => undefined, 1000); // the commit timer itself is unref'd
    assert.equal(await committed, 2);
    clearInterval(keepAlive);
    assert.equal(liveDocs(index).size, 2);
    await index.close();
  });
});
