/**
 * Commit log and opening: framed records with checksums, torn or corrupt tails ignored
 * (and the next commit starts a fresh log instead of appending after garbage), log rotation,
 * leftover files of an interrupted commit removed on open, missing referenced files reported
 * as CORRUPT_INDEX.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory, EngineError } from '../../../engine/index.ts';
import { decodeRecords, encodeRecord, logNumber, type CommitPoint } from '../../../engine/commit/commit-log.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

const point = (generation: number): CommitPoint => ({
  generation,
  committedAt: generation * 1000,
  nextSegment: generation,
  segments: [],
  docCount: 0,
});

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

describe('commit log records', () => {
  it('decodes every complete record and stops at a torn or corrupt one', () => {
    const a = encodeRecord(point(1));
    const b = encodeRecord(point(2));
    const c = encodeRecord(point(3));
    assert.deepEqual(
      decodeRecords(concat(a, b, c)).map((p) => p.generation),
      [1, 2, 3],
    );
    for (let cut = 1; cut < c.length; cut += 7) {
      assert.deepEqual(
        decodeRecords(concat(a, b, c.subarray(0, cut))).map((p) => p.generation),
        [1, 2],
      );
    }
    const bad = c.slice();
    bad[bad.length - 3] ^= 1;
    assert.deepEqual(
      decodeRecords(concat(a, b, bad)).map((p) => p.generation),
      [1, 2],
    );
    assert.deepEqual(decodeRecords(new Uint8Array(0)), []);
  });
});

async function logName(dir: MemoryDirectory): Promise<string> {
  const logs = (await dir.listAll()).filter((f) => logNumber(f) >= 0);
  assert.equal(logs.length, 1);
  return logs[0];
}

describe('opening an index directory', () => {
  it('ignores a torn commit record and never appends after it', async () => {
    const dir = new MemoryDirectory();
    const a = await openIndex({ directory: dir, schema: SCHEMA });
    a.writer.add(makeDoc(1));
    await a.writer.commit();
    a.writer.add(makeDoc(2));
    await a.writer.commit();
    await a.close();
    const log = await logName(dir);
    const full = await dir.readFile(log);
    // simulate a crash while appending generation 3: half a record at the end
    await dir.appendFile(log, encodeRecord(point(3)).subarray(0, 20));
    assert.equal((await dir.readFile(log)).length, full.length + 20);

    const b = await openIndex({ directory: dir, schema: SCHEMA });
    assert.equal(b.reader.generation, 2);
    assert.equal(liveDocs(b).size, 2);
    b.writer.add(makeDoc(3));
    await b.writer.commit();
    await b.close();
    const newLog = await logName(dir);
    assert.notEqual(newLog, log, 'a fresh log was started after the torn tail');

    const c = await openIndex({ directory: dir, schema: SCHEMA });
    assert.equal(c.reader.generation, 3);
    assert.deepEqual([...liveDocs(c).keys()].sort(), ['k1', 'k2', 'k3']);
    await c.close();
  });

  it('removes files no commit references (leftovers of a crash)', async () => {
    const dir = new MemoryDirectory();
    const a = await openIndex({ directory: dir, schema: SCHEMA });
    a.writer.add(makeDoc(1));
    await a.writer.commit();
    await a.close();
    await dir.writeFile('s00zzzz.seg', [new Uint8Array([1, 2, 3])]);
    await dir.writeFile('s000000_99.del', [new Uint8Array([1])]);
    await dir.writeFile('notes.txt', [new Uint8Array([1])]);
    const b = await openIndex({ directory: dir, schema: SCHEMA });
    const files = await dir.listAll();
    assert.ok(!files.includes('s00zzzz.seg'));
    assert.ok(!files.includes('s000000_99.del'));
    assert.ok(files.includes('notes.txt'), 'foreign files are left alone');
    assert.equal(liveDocs(b).size, 1);
    await b.close();
  });

  it('reports a missing referenced segment as CORRUPT_INDEX', async () => {
    const dir = new MemoryDirectory();
    const a = await openIndex({ directory: dir, schema: SCHEMA });
    a.writer.add(makeDoc(1));
    await a.writer.commit();
    await a.close();
    for (const f of await dir.listAll()) if (f.endsWith('.seg')) await dir.deleteFile(f);
    await assert.rejects(
      openIndex({ directory: dir, schema: SCHEMA }),
      (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX',
    );
  });

  it('opens an empty directory as an empty index at generation 0', async () => {
    const index = await openIndex({ directory: new MemoryDirectory(), schema: SCHEMA });
    assert.equal(index.reader.generation, 0);
    assert.equal(index.reader.searcher().numDocs, 0);
    await index.close();
  });
});
