/**
 * Exact phrase matching (slop 0) in one field: a conjunction of the slots'
 * postings verified through positions, scored by BM25 of the phrase frequency.
 * A slot may hold alternatives, whose positions are merged.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import type { PostingsIterator, SegmentReader } from '../segment/types.ts';
import { bm25Score } from '../similarity/bm25.ts';
import type { TermWeight } from '../similarity/bm25.ts';
import type { Scorer } from './scorers.ts';

/** Positions source of one phrase slot: one term, or a union of alternatives with merged positions. */
export class SlotPostings {
  doc = -1;
  readonly cost: number;
  private merged: Int32Array = new Int32Array(0);

  constructor(private readonly its: PostingsIterator[]) {
    let c = 0;
    for (const it of its) c += it.cost();
    this.cost = c;
  }

  private settle(): number {
    let min = NO_MORE_DOCS;
    for (const it of this.its) if (it.docID() < min) min = it.docID();
    return (this.doc = min);
  }

  nextDoc(): number {
    const cur = this.doc;
    for (const it of this.its) if (it.docID() <= cur) it.nextDoc();
    return this.settle();
  }

  advance(target: number): number {
    for (const it of this.its) if (it.docID() < target) it.advance(target);
    return this.settle();
  }

  positions(): Int32Array {
    if (this.its.length === 1) return this.its[0].positions();
    const parts: Int32Array[] = [];
    let n = 0;
    for (const it of this.its) {
      if (it.docID() === this.doc) {
        const p = it.positions();
        parts.push(p);
        n += p.length;
      }
    }
    if (parts.length === 1) return parts[0];
    if (this.merged.length < n) this.merged = new Int32Array(n);
    let k = 0;
    for (const p of parts) for (let i = 0; i < p.length; i++) this.merged[k++] = p[i];
    const view = this.merged.subarray(0, n).sort();
    return view;
  }
}

/** Exact phrase (slop 0): slot i must occur at position p + offsets[i]. */
export class PhraseScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  readonly maxScore: number;
  private phraseFreq = 0;
  private readonly lead: number;
  /** Scratch for countPhrase: positions of slots 1.. and their cursors. */
  private readonly rest: Int32Array[];
  private readonly ptr: Int32Array;

  constructor(
    private readonly slots: SlotPostings[],
    private readonly offsets: number[],
    private readonly w: TermWeight,
    private readonly reader: SegmentReader,
    private readonly field: string,
  ) {
    let lead = 0;
    for (let i = 1; i < slots.length; i++) if (slots[i].cost < slots[lead].cost) lead = i;
    this.lead = lead;
    this.rest = new Array<Int32Array>(Math.max(0, slots.length - 1));
    this.ptr = new Int32Array(Math.max(0, slots.length - 1));
    this.cost = slots[lead].cost;
    this.maxScore = w.weight;
  }

  nextDoc(): number {
    return this.doMatch(this.slots[this.lead].nextDoc());
  }

  advance(target: number): number {
    return this.doMatch(this.slots[this.lead].advance(target));
  }

  private doMatch(candidate: number): number {
    const lead = this.slots[this.lead];
    let doc = candidate;
    outer: while (doc !== NO_MORE_DOCS) {
      for (let i = 0; i < this.slots.length; i++) {
        const s = this.slots[i];
        if (s.doc < doc) s.advance(doc);
        if (s.doc > doc) {
          if (s.doc === NO_MORE_DOCS) break outer;
          doc = lead.advance(s.doc);
          continue outer;
        }
      }
      const f = this.countPhrase();
      if (f > 0) {
        this.phraseFreq = f;
        return (this.doc = doc);
      }
      doc = lead.nextDoc();
    }
    return (this.doc = NO_MORE_DOCS);
  }

  private countPhrase(): number {
    const first = this.slots[0].positions();
    const off0 = this.offsets[0];
    const rest = this.rest;
    for (let i = 1; i < this.slots.length; i++) rest[i - 1] = this.slots[i].positions();
    const ptr = this.ptr;
    ptr.fill(0);
    let count = 0;
    for (let j = 0; j < first.length; j++) {
      const p = first[j] - off0;
      let ok = true;
      for (let i = 0; i < rest.length; i++) {
        const want = p + this.offsets[i + 1];
        const pos = rest[i];
        let k = ptr[i];
        while (k < pos.length && pos[k] < want) k++;
        ptr[i] = k;
        if (k >= pos.length) return count;
        if (pos[k] !== want) ok = false;
      }
      if (ok) count++;
    }
    return count;
  }

  /** Phrase frequency in the current doc. */
  freq(): number {
    return this.phraseFreq;
  }

  score(): number {
    return bm25Score(this.w, this.phraseFreq, this.reader.fieldLength(this.field, this.doc));
  }

  shallowEnd(_target: number): number {
    return NO_MORE_DOCS;
  }

  maxScoreIn(_lo: number, hi: number): number {
    return this.doc > hi ? 0 : this.maxScore;
  }
}
