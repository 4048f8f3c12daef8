/**
 * I/O failures during commit: a failing segment write or a torn commit-log append makes
 * commit() reject with an IO EngineError, nothing half-written becomes visible, and a later
 * commit succeeds and is found on reopen (a torn log is never appended to again).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openIndex, MemoryDirectory, EngineError } from '../../../engine/index.ts';
import { SCHEMA, makeDoc, liveDocs } from '../helpers/storage-fixtures.ts';

/** MemoryDirectory that fails the next write or append when armed. */
class FaultyDirectory extends MemoryDirectory {
  failNextWrite = false;
  tearNextAppend = false;

  override async writeFile(name: string, chunks: readonly Uint8Array[]): Promise<void> {
    if (this.failNextWrite && name.endsWith('.seg')) {
      this.failNextWrite = false;
      throw new EngineError('IO', `injected write failure on ${name}`);
    }
    return super.writeFile(name, chunks);
  }

  override async appendFile(name: string, data: Uint8Array): Promise<void> {
    if (this.tearNextAppend) {
      this.tearNextAppend = false;
      await super.appendFile(name, data.subarray(0, Math.floor(data.length / 2)));
      throw new EngineError('IO', `injected torn append on ${name}`);
    }
    return super.appendFile(name, data);
  }
}

describe('commit under I/O failures', () => {
  it('rejects when a segment cannot be written, then succeeds on retry', async () => {
    const dir = new FaultyDirectory();
    const index = await openIndex({ directory: dir, schema: SCHEMA, merge: false });
    index.writer.add(makeDoc(1));
    dir.failNextWrite = true;
    await assert.rejects(index.writer.commit(), (e) => e instanceof EngineError && e.code === 'IO');
    assert.equal(liveDocs(index).size, 0);
    index.writer.add(makeDoc(2));
    const info = await index.writer.commit();
    assert.equal(info.docCount, 2);
    assert.deepEqual([...liveDocs(index).keys()].sort(), ['k1', 'k2']);
    await index.close();
  });

  it('never appends after a torn commit record', async () => {
    const dir = new FaultyDirectory();
    const a = await openIndex({ directory: dir, schema: SCHEMA, merge: false });
    a.writer.add(makeDoc(1));
    await a.writer.commit();
    a.writer.add(makeDoc(2));
    a.writer.add(makeDoc(4));
    a.writer.delete('k1'); // makes the failed attempt write a deletion file
    dir.tearNextAppend = true;
    await assert.rejects(a.writer.commit(), (e) => e instanceof EngineError && e.code === 'IO');
    assert.equal(a.reader.generation, 1);
    a.writer.add(makeDoc(3));
    const info = await a.writer.commit();
    assert.equal(info.docCount, 3);
    assert.ok(info.generation > 2, 'the failed generation is not reused');
    await a.close();

    const b = await openIndex({ directory: dir, schema: SCHEMA, merge: false });
    assert.equal(b.reader.generation, info.generation);
    assert.deepEqual([...liveDocs(b).keys()].sort(), ['k2', 'k3', 'k4']);
    await b.close();
  });
});
