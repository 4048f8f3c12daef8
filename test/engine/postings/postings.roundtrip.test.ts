/**
 * Postings codec round trips: random postings lists written by PostingsWriter read back
 * by BlockPostingsIterator through nextDoc, advance, positions, advanceShallow and impacts
 * (which must bound every doc of their block), plus bit-packing and one-byte norms.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsWriter, BLOCK_SIZE } from '../../../engine/postings/postings-writer.ts';
import { BlockPostingsIterator } from '../../../engine/postings/postings-reader.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';
import { packBlock, unpackBlock } from '../../../engine/postings/bitpack.ts';
import { ByteWriter } from '../../../engine/util/bytes.ts';
import { intToByte4, byte4ToInt, NORM_TABLE } from '../../../engine/similarity/norms.ts';

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

interface Post {
  doc: number;
  freq: number;
  len: number;
  positions: number[];
}

function randomList(r: () => number, n: number, gap: number): Post[] {
  const out: Post[] = [];
  let doc = -1;
  for (let i = 0; i < n; i++) {
    doc += 1 + Math.floor(r() * gap);
    const freq = 1 + Math.floor(r() * r() * 20);
    const positions: number[] = [];
    let p = 0;
    for (let k = 0; k < freq; k++) positions.push((p += Math.floor(r() * 50)));
    const len = NORM_TABLE[intToByte4(freq + Math.floor(r() * 500))];
    out.push({ doc, freq, len, positions });
  }
  return out;
}

function write(lists: Post[][]) {
  const w = new PostingsWriter();
  const metas = lists.map((list) => {
    w.startTerm();
    for (const p of list) w.addDoc(p.doc, p.freq, p.len, p.positions, 0);
    return w.finishTerm();
  });
  return { doc: w.docOut.toBytes(), pos: w.posOut.toBytes(), metas };
}

describe('postings codec', () => {
  const r = rng(42);
  const lists = [
    randomList(r, 1, 5),
    randomList(r, 127, 3),
    randomList(r, 128, 3),
    randomList(r, 129, 100),
    randomList(r, 5000, 40),
    randomList(r, 3000, 1),
  ];
  const { doc, pos, metas } = write(lists);

  it('iterates every doc with freq and positions', () => {
    lists.forEach((list, t) => {
      const it = new BlockPostingsIterator(doc, pos, metas[t], true);
      assert.equal(it.cost(), list.length);
      assert.equal(it.docID(), -1);
      for (const p of list) {
        assert.equal(it.nextDoc(), p.doc);
        assert.equal(it.freq(), p.freq);
        assert.deepEqual([...it.positions()], p.positions);
      }
      assert.equal(it.nextDoc(), NO_MORE_DOCS);
      assert.equal(metas[t].docFreq, list.length);
      assert.equal(
        metas[t].totalTermFreq,
        list.reduce((s, p) => s + p.freq, 0),
      );
    });
  });

  it('advance() lands on the first doc >= target, skipping blocks, with positions intact', () => {
    const r2 = rng(7);
    lists.forEach((list, t) => {
      const it = new BlockPostingsIterator(doc, pos, metas[t], r2() < 0.5);
      let cur = -1;
      for (;;) {
        const target = cur + 1 + Math.floor(r2() * 300);
        const expected = list.find((p) => p.doc >= target);
        const got = it.advance(target);
        if (!expected) {
          assert.equal(got, NO_MORE_DOCS);
          break;
        }
        assert.equal(got, expected.doc);
        assert.equal(it.freq(), expected.freq);
        if (r2() < 0.3) {
          const withPos = new BlockPostingsIterator(doc, pos, metas[t], true);
          withPos.advance(target);
          assert.deepEqual([...withPos.positions()], expected.positions);
        }
        cur = got;
      }
    });
  });

  it('advanceShallow() returns block ends and impacts bound every doc of the block', () => {
    lists.forEach((list, t) => {
      const it = new BlockPostingsIterator(doc, pos, metas[t], false);
      for (let b = 0; b * BLOCK_SIZE < list.length; b++) {
        const first = list[b * BLOCK_SIZE];
        const block = list.slice(b * BLOCK_SIZE, (b + 1) * BLOCK_SIZE);
        const last = it.advanceShallow(first.doc);
        assert.equal(last, block[block.length - 1].doc);
        const impacts = it.blockImpacts();
        assert.ok(impacts.length >= 1);
        for (let k = 1; k < impacts.length; k++) {
          assert.ok(
            impacts[k].freq > impacts[k - 1].freq && impacts[k].norm > impacts[k - 1].norm,
            'frontier ascending',
          );
        }
        for (const p of block) {
          assert.ok(
            impacts.some((im) => im.freq >= p.freq && im.norm <= p.len),
            `doc ${p.doc} bounded`,
          );
        }
        // every impact is attained by some doc of the block (tight)
        for (const im of impacts) assert.ok(block.some((p) => p.freq === im.freq && p.len >= im.norm));
      }
      assert.equal(it.advanceShallow(list[list.length - 1].doc + 1), NO_MORE_DOCS);
      assert.equal(it.docID(), -1, 'shallow moves do not move the doc cursor');
    });
  });
});

describe('bit packing', () => {
  it('round-trips every width from 0 to 31 bits', () => {
    const r = rng(3);
    for (let w = 0; w <= 31; w++) {
      const n = 1 + Math.floor(r() * 128);
      const vals = new Int32Array(n);
      for (let i = 0; i < n; i++) vals[i] = w === 0 ? 0 : Math.floor(r() * 2 ** w);
      if (w > 0) vals[0] = 2 ** w - 1;
      const out = new ByteWriter();
      packBlock(out, vals, n);
      const dst = new Int32Array(128);
      const end = unpackBlock(out.view(), 0, dst, n);
      assert.equal(end, out.length);
      assert.deepEqual([...dst.subarray(0, n)], [...vals]);
    }
  });
});

describe('one-byte norms (SmallFloat.intToByte4)', () => {
  it('is exact below 24, monotonic, and rounds down', () => {
    for (let i = 0; i < 24; i++) assert.equal(byte4ToInt(intToByte4(i)), i);
    let prev = -1;
    for (let i = 0; i < 100000; i += 7) {
      const b = intToByte4(i);
      assert.ok(b >= prev);
      prev = b;
      assert.ok(byte4ToInt(b) <= i);
    }
    assert.equal(byte4ToInt(intToByte4(100)), 96);
    assert.equal(intToByte4(2 ** 31 - 1), 255);
  });
});
