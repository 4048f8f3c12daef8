/**
 * Stored-field store: payload encoding (raw text with lengths, separators inside text,
 * unicode, empty fields) and the compressed block store across many blocks.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodePayload, decodePayload } from '../../../engine/store/payload.ts';
import { StoredWriter } from '../../../engine/store/stored-writer.ts';
import { StoredReader } from '../../../engine/store/stored-reader.ts';
import { EngineError } from '../../../engine/errors.ts';

describe('stored payload', () => {
  it('round-trips text fields verbatim and the stored object', () => {
    const text = { title: 'Ärger\u0001mit 12\u00013', body: '', notes: '😀 "quoted" \\ back\nslash' };
    const stored = { a: 1, nested: { b: [1, 'x'] }, s: '\u0001' };
    const p = decodePayload(encodePayload('en', text, stored));
    assert.deepEqual(p, { l: 'en', t: text, s: stored });
    assert.equal(decodePayload(encodePayload('de', {}, {})).l, 'de');
  });

  it('reports a damaged payload as CORRUPT_INDEX', () => {
    const s = encodePayload('de', { body: 'hello' }, {});
    assert.throws(
      () => decodePayload(s.slice(0, 8)),
      (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX',
    );
  });
});

describe('compressed block store', () => {
  it('returns every doc across blocks, in random order', async () => {
    const w = new StoredWriter();
    const docs: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const d = `doc ${i} ` + 'lorem ipsum dolor '.repeat(i % 40) + (i % 7 === 0 ? 'äöü😀' : '');
      docs.push(d);
      w.add(d);
    }
    const blocks = await w.finish();
    assert.ok(blocks.offsets.length - 1 > 10, 'several blocks');
    assert.equal(blocks.firstDocs.length, blocks.offsets.length - 1);
    const raw = blocks.data.reduce((n, b) => n + b.length, 0);
    assert.ok(raw < docs.reduce((n, d) => n + d.length, 0) / 2, 'compressed');
    const data = new Uint8Array(raw);
    let off = 0;
    for (const b of blocks.data) {
      data.set(b, off);
      off += b.length;
    }
    const r = new StoredReader(data, blocks.firstDocs, blocks.offsets, docs.length);
    for (let k = 0; k < 3000; k++) {
      const i = (k * 7919) % docs.length;
      assert.equal(r.doc(i), docs[i]);
    }
    assert.throws(
      () => r.doc(3000),
      (e) => e instanceof EngineError,
    );
  });
});

describe('compressed block store, delivery order', () => {
  function docsFor(seed: number): string[] {
    const docs: string[] = [];
    let chars = 0;
    for (let i = 0; chars < 3 * 2 ** 20; i++) {
      // a few docs larger than a ring slot (compressed inline, possibly ahead of blocks still in the ring)
      const d =
        i % 500 === 250
          ? `big ${seed}-${i} ` + 'x y z '.repeat(120_000)
          : `doc ${seed}-${i} ` + 'lorem ipsum dolor '.repeat(10 + (i % 60));
      docs.push(d);
      chars += d.length;
    }
    return docs;
  }

  function check(blocks: Awaited<ReturnType<StoredWriter['finish']>>, docs: string[]): void {
    const data = Buffer.concat(blocks.data);
    assert.equal(data.length, blocks.offsets[blocks.offsets.length - 1]);
    const r = new StoredReader(
      new Uint8Array(data.buffer, data.byteOffset, data.length),
      blocks.firstDocs,
      blocks.offsets,
      docs.length,
    );
    for (let i = 0; i < docs.length; i++) assert.equal(r.doc(i), docs[i], `doc ${i}`);
  }

  it('keeps block order when large blocks are compressed inline among blocks in flight (finish)', async () => {
    const docs = docsFor(1);
    const w = new StoredWriter();
    for (const d of docs) w.add(d);
    check(await w.finish(), docs);
  });
});
