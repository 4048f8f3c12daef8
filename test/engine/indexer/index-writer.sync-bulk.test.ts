/**
 * IndexWriter under a synchronous bulk load: adds in one loop that never yields seal several
 * buffers whose segments cannot be written until the loop ends (their images may be made during
 * the loop, their files are written asynchronously); updates and deletes made meanwhile must still
 * reach docs in those sealed buffers,
 * and the commit must hold exactly the last version of every key, with its stored text.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory } from '../../../engine/index.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

describe('IndexWriter synchronous bulk load', () => {
  it('applies updates and deletes to sealed buffers added in the same synchronous run', async () => {
    const index = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      merge: false,
      ramBufferBytes: 32 * 1024,
    });
    const body = (i: number, v: string) =>
      `body ${v} text for document ${i} ` + 'filler words make blocks compress '.repeat(20);
    for (let i = 0; i < 600; i++) index.writer.add(makeDoc(i, { text: { title: `t${i}`, body: body(i, 'first') } }));
    // still in the same synchronous run: keys now sit in sealed buffers
    for (let i = 0; i < 600; i += 7)
      index.writer.add(makeDoc(i, { text: { title: `t${i}`, body: body(i, 'second') }, stored: { n: -i - 1 } }));
    for (let i = 3; i < 600; i += 11) index.writer.delete(`k${i}`);
    await index.writer.commit();
    assert.ok(index.reader.segments().length > 3, 'several buffers were sealed during the loop');
    const docs = liveDocs(index);
    for (let i = 0; i < 600; i++) {
      const d = docs.get(`k${i}`);
      if (i % 11 === 3) {
        assert.equal(d, undefined, `k${i} deleted`);
        continue;
      }
      assert.ok(d, `k${i} live`);
      const updated = i % 7 === 0;
      assert.equal(d.body, body(i, updated ? 'second' : 'first'));
      assert.deepEqual(d.stored, { n: updated ? -i - 1 : i });
    }
    const hits = index.reader.searcher().search({ query: 'second', language: 'en', limit: 1000 });
    assert.equal(hits.total, [...docs.values()].filter((d) => d.body.includes('second')).length);
    await index.close();
  });
});
