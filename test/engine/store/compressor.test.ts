/**
 * Block compressor (engine/store/compressor.ts): every block becomes one complete raw DEFLATE
 * stream of its bytes whichever thread compresses (worker through the shared rings, or inline
 * when a block is too large or the ring is full), in any number and size of blocks, at about
 * the size a fresh deflateRawSync gives, and the caller's buffer is copied (reusable at once).
 * The worker stops when the last stored writer finishes a bulk load (not while a writer is open,
 * nor after a small load), small loads without a worker compress inline, and more work starts it again.
 * collectBlocks hands finished results over without an event-loop turn (segments sealed inside a synchronous loop).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  BUSY_BYTES,
  compressBlock,
  compressBlockTo,
  collectBlocks,
  compressorWorkerRunning,
  DEFLATE_LEVEL,
  RING_BYTES,
  START_BYTES,
} from '../../../engine/store/compressor.ts';
import { StoredWriter } from '../../../engine/store/stored-writer.ts';
import { StoredReader } from '../../../engine/store/stored-reader.ts';

function block(i: number, size: number): Uint8Array {
  const b = new Uint8Array(size);
  let x = (i + 1) * 2654435761;
  for (let k = 0; k < size; k++) {
    // text-like bytes: compressible, different per block
    x = (x * 1103515245 + 12345) >>> 0;
    b[k] = 97 + ((x >>> 16) % (k % 97 < 60 ? 4 : 26));
  }
  return b;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return (
    Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0
  );
}

describe('block compressor', () => {
  it('round-trips more blocks than the rings hold (wrap-around, full ring), at about fresh-context size', async () => {
    const sizes = [0, 1, 3, 8191, 8192, 8193, 30_000, 100_003];
    const blocks: Uint8Array[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 3 * RING_BYTES; i++) {
      const b = block(i, sizes[i % sizes.length]);
      blocks.push(b);
      bytes += b.length;
    }
    const outs = await Promise.all(blocks.map((b) => compressBlock(b)));
    for (let i = 0; i < blocks.length; i++) {
      assert.ok(same(inflateRawSync(outs[i]), blocks[i]), `block ${i} (${blocks[i].length} bytes)`);
      const fresh = deflateRawSync(blocks[i], { level: DEFLATE_LEVEL }).length;
      assert.ok(
        outs[i].length <= fresh + 16 + (fresh >>> 6),
        `block ${i}: ${outs[i].length} bytes, fresh context ${fresh}`,
      );
    }
  });

  it('compresses a block larger than a ring slot (inline) and an empty block', async () => {
    const big = block(7, RING_BYTES);
    const out = await compressBlock(big);
    assert.ok(same(inflateRawSync(out), big));
    assert.equal(inflateRawSync(await compressBlock(new Uint8Array(0))).length, 0);
  });

  it('copies the input: the caller may overwrite its buffer at once', async () => {
    const b = block(3, 8192);
    const expected = b.slice();
    const pending = compressBlock(b);
    b.fill(0);
    assert.ok(same(inflateRawSync(await pending), expected));
  });

  it('collectBlocks hands over finished results without an event-loop turn', () => {
    const blocks: Uint8Array[] = [];
    for (let i = 0, bytes = 0; bytes < START_BYTES + RING_BYTES / 2; i++) {
      const b = block(200 + i, 8192 + (i % 7) * 1000);
      blocks.push(b);
      bytes += b.length;
    }
    const outs: (Uint8Array | null)[] = blocks.map(() => null);
    blocks.forEach((b, i) => compressBlockTo(b, (out) => (outs[i] = out && out.slice())));
    assert.equal(compressorWorkerRunning(), true, 'blocks went through the worker');
    assert.ok(
      outs.some((o) => o === null),
      'some blocks were still compressing',
    );
    const deadline = Date.now() + 20_000;
    while (outs.some((o) => o === null) && Date.now() < deadline) collectBlocks();
    for (let i = 0; i < blocks.length; i++) {
      assert.ok(outs[i], `block ${i} delivered`);
      assert.ok(same(inflateRawSync(outs[i]!), blocks[i]), `block ${i}`);
    }
  });

  it('delivers results to a caller that submits a few blocks and then waits', async () => {
    for (let round = 0; round < 5; round++) {
      const b = block(100 + round, 1000);
      assert.ok(same(inflateRawSync(await compressBlock(b)), b));
      await new Promise((r) => setTimeout(r, 5));
    }
  });
});

describe('compression worker lifetime', () => {
  /** Writes `mb` MB of distinct docs through a StoredWriter and checks every doc reads back. */
  async function writeAndCheck(mb: number, seed: number): Promise<void> {
    const w = new StoredWriter();
    const docs: string[] = [];
    let chars = 0;
    for (let i = 0; chars < mb * 2 ** 20; i++) {
      const d = `doc ${seed}-${i} ` + 'lorem ipsum dolor sit amet '.repeat(20 + (i % 50)) + i;
      docs.push(d);
      chars += d.length;
      w.add(d);
    }
    const blocks = await w.finish();
    const data = Buffer.concat(blocks.data);
    const r = new StoredReader(
      new Uint8Array(data.buffer, data.byteOffset, data.length),
      blocks.firstDocs,
      blocks.offsets,
      docs.length,
    );
    for (let i = 0; i < docs.length; i += 97) assert.equal(r.doc(i), docs[i]);
    assert.equal(r.doc(docs.length - 1), docs[docs.length - 1]);
  }

  it('stops the worker when the last writer finishes a bulk load, and starts one again for more work', async () => {
    await writeAndCheck((START_BYTES + BUSY_BYTES) / 2 ** 20 + 1, 1);
    assert.equal(compressorWorkerRunning(), false, 'worker stopped after a bulk load');
    // a small load after the stop is compressed inline (no worker boot)
    await writeAndCheck(START_BYTES / 2 ** 20 / 4, 2);
    assert.equal(compressorWorkerRunning(), false, 'small load compressed inline');
  });

  it('keeps the worker after a small load that used it, and while another writer is open', async () => {
    const open = new StoredWriter();
    open.add('an open writer with one doc');
    await writeAndCheck((START_BYTES + BUSY_BYTES) / 2 ** 20 + 1, 3);
    assert.equal(compressorWorkerRunning(), true, 'kept while a writer is open');
    await open.finish();
    assert.equal(compressorWorkerRunning(), false, 'stopped once the last writer finished');
    await writeAndCheck(START_BYTES / 2 ** 20 + 1, 4);
    assert.equal(compressorWorkerRunning(), true, 'kept after a small load (stops when idle)');
  });
});
