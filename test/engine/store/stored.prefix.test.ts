/**
 * Stored-field reader, blocks inflated only up to the asked doc: every doc reads back
 * verbatim whatever the order (a block's last doc first, earlier docs from its prefix,
 * docs beyond a cached prefix), also when characters take several UTF-8 bytes (a
 * prefix cut inside a character) and for docs larger than the shared inflate buffer;
 * a damaged block still reports CORRUPT_INDEX.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StoredWriter } from '../../../engine/store/stored-writer.ts';
import { StoredReader } from '../../../engine/store/stored-reader.ts';
import { EngineError } from '../../../engine/errors.ts';

async function store(
  docs: string[],
): Promise<{ r: () => StoredReader; data: Uint8Array; firstDocs: Int32Array; offsets: Float64Array }> {
  const w = new StoredWriter();
  for (const d of docs) w.add(d);
  const blocks = await w.finish();
  const data = new Uint8Array(Buffer.concat(blocks.data));
  const firstDocs = Int32Array.from(blocks.firstDocs);
  const offsets = Float64Array.from(blocks.offsets);
  return { r: () => new StoredReader(data, firstDocs, offsets, docs.length), data, firstDocs, offsets };
}

function docsOf(n: number): string[] {
  const pieces = ['plain ascii words ', 'Grüße aus Köln ', '日本語のテキスト ', '😀🎉 emoji ', 'x'];
  return Array.from(
    { length: n },
    (_, i) => `${i}:` + pieces[i % pieces.length].repeat(1 + ((i * 37) % 90)) + pieces[(i + 2) % pieces.length],
  );
}

describe('stored reader, prefix inflation', () => {
  it('reads every doc verbatim in descending, ascending and scattered order', async () => {
    const docs = docsOf(1200);
    const { r } = await store(docs);
    const down = r();
    for (let i = docs.length - 1; i >= 0; i--) assert.equal(down.doc(i), docs[i], `doc ${i} (descending)`);
    const up = r();
    for (let i = 0; i < docs.length; i++) assert.equal(up.doc(i), docs[i], `doc ${i} (ascending)`);
    const scattered = r();
    for (let k = 0; k < 3 * docs.length; k++) {
      const i = (k * 7919 + (k % 3) * 13) % docs.length;
      assert.equal(scattered.doc(i), docs[i], `doc ${i} (scattered)`);
    }
  });

  it('reads docs larger than the shared inflate buffer', async () => {
    const docs = ['small one', 'ä'.repeat(100_000) + 'end', 'small two', '😀'.repeat(40_000)];
    const { r } = await store(docs);
    const reader = r();
    for (const i of [3, 0, 1, 2, 1, 3]) assert.equal(reader.doc(i), docs[i]);
  });

  it('reports a damaged block as CORRUPT_INDEX', async () => {
    const docs = docsOf(200);
    const { data, firstDocs, offsets } = await store(docs);
    const damaged = data.slice();
    // truncate the first block's stream: its end can no longer be reached
    const cut = new Float64Array(offsets);
    cut[1] = Math.floor((offsets[0] + offsets[1]) / 2);
    const reader = new StoredReader(damaged, firstDocs, cut, docs.length);
    const lastOfBlock0 = (firstDocs.length > 1 ? firstDocs[1] : docs.length) - 1;
    assert.throws(
      () => reader.doc(lastOfBlock0),
      (e) => e instanceof EngineError && e.code === 'CORRUPT_INDEX',
    );
  });
});
