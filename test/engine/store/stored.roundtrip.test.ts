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
    assert.throws(() => decodePayload(s.slice(0, 8)), (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX');
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
    assert.ok(blocks.data.length > 10, 'several blocks');
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
    assert.throws(() => r.doc(3000), (e) => e instanceof EngineError);
  });
});
