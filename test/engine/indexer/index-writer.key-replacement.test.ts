/**
 * IndexWriter key bookkeeping under a random mix of adds, replacements, deletes and
 * deletes by keyword (half of them on a few hot keys), with small buffers (many sealed and written buffers) and event-loop
 * turns in between (buffers become segments mid-run): after every commit the index holds
 * exactly one live copy of each key a model says is live, with that copy's content.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory } from '../../../engine/index.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

/** Deterministic pseudo-random integers in [0, n). */
function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    return (s >>> 8) % n;
  };
}

describe('IndexWriter key replacement across buffers and segments', () => {
  async function run(keys: number, steps: number, opsPerStep: number): Promise<void> {
    const index = await openIndex({
      directory: new MemoryDirectory(),
      schema: SCHEMA,
      merge: false,
      ramBufferBytes: 8 * 1024,
    });
    const rand = rng(42);
    /** key -> version of its live copy (absent: deleted or never added). */
    const model = new Map<string, { version: number; ds: string }>();
    let version = 0;
    for (let step = 0; step < steps; step++) {
      for (let op = 0; op < opsPerStep; op++) {
        const i = rand(2) === 0 ? rand(20) : rand(keys); // half the operations on 20 hot keys
        const key = `k${i}`;
        const r = rand(100);
        if (r < 75) {
          const v = ++version;
          const ds = `ds${rand(4)}`;
          index.writer.add(
            makeDoc(i, {
              keywords: { ds: [ds], acl: ['all'] },
              stored: { v },
              text: { title: `t${i}`, body: `version ${v} of ${key}` },
            }),
          );
          model.set(key, { version: v, ds });
        } else if (r < 95) {
          index.writer.delete(key);
          model.delete(key);
        } else if (r < 96) {
          const ds = `ds${rand(4)}`;
          index.writer.deleteByKeyword('ds', ds);
          for (const [k, m] of model) if (m.ds === ds) model.delete(k);
        }
        if (op % 97 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await index.writer.commit();
      const docs = liveDocs(index);
      assert.equal(docs.size, model.size, `step ${step}: live doc count`);
      for (const [key, m] of model) {
        const d = docs.get(key);
        assert.ok(d, `step ${step}: ${key} live`);
        assert.deepEqual(d.stored, { v: m.version }, `step ${step}: ${key} version`);
      }
    }
    assert.ok(index.reader.segments().length > 6, 'buffers were sealed and written along the way');
    await index.close();
  }

  it('keeps exactly the last version of every live key', async () => {
    await run(150, 6, 400);
  });

  it('keeps them with many keys and a few hot ones updated across buffers', async () => {
    await run(2000, 3, 2000);
  });
});
