/**
 * The block postings reader's filtered moves and per-doc freq bounds, on random lists written
 * by PostingsWriter: advanceMatching (first doc >= target whose bit is set in a filter bitset)
 * agrees with a plain scan, leaves freq() and nextDoc() consistent (freqs are decoded lazily),
 * and blockMaxFreq bounds the freq of every doc of its block, also when narrowed to the doc's
 * own norm byte.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsWriter } from '../../../engine/postings/postings-writer.ts';
import { BlockPostingsIterator } from '../../../engine/postings/postings-reader.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';
import { intToByte4 } from '../../../engine/similarity/norms.ts';

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

interface Post {
  doc: number;
  freq: number;
  /** Raw field length (not rounded to a norm value). */
  len: number;
}

function randomList(r: () => number, n: number, gap: number): Post[] {
  const out: Post[] = [];
  let doc = -1;
  for (let i = 0; i < n; i++) {
    doc += 1 + Math.floor(r() * gap);
    const freq = 1 + Math.floor(r() * r() * 12);
    out.push({ doc, freq, len: freq + Math.floor(r() * 700) });
  }
  return out;
}

function write(lists: Post[][]) {
  const w = new PostingsWriter();
  const metas = lists.map((list) => {
    w.startTerm();
    for (const p of list) w.addDoc(p.doc, p.freq, p.len, [], 0);
    return w.finishTerm();
  });
  return { doc: w.docOut.toBytes(), pos: w.posOut.toBytes(), metas };
}

function randomBits(r: () => number, maxDoc: number, density: number): Uint32Array {
  const bits = new Uint32Array((maxDoc >>> 5) + 1);
  for (let d = 0; d < maxDoc; d++) if (r() < density) bits[d >>> 5] |= 1 << (d & 31);
  return bits;
}

const isSet = (bits: Uint32Array, d: number) => ((bits[d >>> 5] >>> (d & 31)) & 1) === 1;

describe('filtered postings moves', () => {
  const r = rng(7);
  const lists = [
    randomList(r, 1, 5),
    randomList(r, 128, 2),
    randomList(r, 700, 3),
    randomList(r, 4000, 30),
    randomList(r, 3000, 1),
  ];
  const { doc, pos, metas } = write(lists);

  it('advanceMatching finds the first accepted doc at or after the target, with the right freq', () => {
    lists.forEach((list, t) => {
      const maxDoc = list[list.length - 1].doc + 1;
      for (const density of [0, 0.01, 0.2, 0.9, 1]) {
        const bits = randomBits(r, maxDoc, density);
        const it = new BlockPostingsIterator(doc, pos, metas[t], false);
        let target = 0;
        let steps = 0;
        while (steps++ < 2000) {
          const got = it.advanceMatching(target, bits);
          const want = list.find((p) => p.doc >= target && isSet(bits, p.doc));
          assert.equal(got, want ? want.doc : NO_MORE_DOCS, `list ${t} density ${density} target ${target}`);
          if (!want) break;
          assert.equal(it.freq(), want.freq);
          // mix in a plain nextDoc sometimes: the iterator stays consistent
          if (r() < 0.3) {
            const next = it.nextDoc();
            const i = list.indexOf(want);
            assert.equal(next, i + 1 < list.length ? list[i + 1].doc : NO_MORE_DOCS);
            if (next === NO_MORE_DOCS) break;
            assert.equal(it.freq(), list[i + 1].freq);
            target = next + (r() < 0.5 ? 0 : 1 + Math.floor(r() * 300));
          } else {
            // a target at or below the current doc must not move off an accepted doc
            target = r() < 0.2 ? got : got + 1 + Math.floor(r() * 300);
          }
        }
      }
    });
  });

  it('blockMaxFreq bounds every doc of its block, also for the doc own norm byte', () => {
    lists.forEach((list, t) => {
      const it = new BlockPostingsIterator(doc, pos, metas[t], false);
      let narrowerSomewhere = false;
      for (const p of list) {
        assert.equal(it.nextDoc(), p.doc);
        const any = it.blockMaxFreq();
        const own = it.blockMaxFreq(intToByte4(p.len));
        assert.ok(any >= p.freq, `list ${t} doc ${p.doc}: block max ${any} < freq ${p.freq}`);
        assert.ok(own >= p.freq, `list ${t} doc ${p.doc}: bound ${own} for its norm < freq ${p.freq}`);
        assert.ok(own <= any);
        if (own < any) narrowerSomewhere = true;
      }
      if (list.length > 500) assert.ok(narrowerSomewhere, `list ${t}: the norm byte never narrowed the bound`);
    });
  });
});
