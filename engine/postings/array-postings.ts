/**
 * PostingsIterator over a plain ascending doc list (keyword inverted lists): freq 1,
 * virtual blocks of 128 entries for advanceShallow, galloping advance().
 */
import { NO_MORE_DOCS, type Impact, type PostingsIterator } from '../segment/types.ts';

const IMPACTS: Impact[] = [{ freq: 1, norm: 1 }];
const EMPTY = new Int32Array(0);

export class ArrayPostingsIterator implements PostingsIterator {
  private idx = -1;
  private doc = -1;

  constructor(private readonly docs: Int32Array) {}

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    if (++this.idx >= this.docs.length) {
      this.idx = this.docs.length;
      return (this.doc = NO_MORE_DOCS);
    }
    return (this.doc = this.docs[this.idx]);
  }

  advance(target: number): number {
    const docs = this.docs;
    const n = docs.length;
    let lo = this.idx + 1;
    if (lo >= n) {
      this.idx = n;
      return (this.doc = NO_MORE_DOCS);
    }
    let step = 1;
    let hi = lo;
    while (hi < n && docs[hi] < target) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    if (hi > n) hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    this.idx = lo;
    return (this.doc = lo >= n ? NO_MORE_DOCS : docs[lo]);
  }

  freq(): number {
    return 1;
  }

  positions(): Int32Array {
    return EMPTY;
  }

  cost(): number {
    return this.docs.length;
  }

  advanceShallow(target: number): number {
    const docs = this.docs;
    let lo = 0;
    let hi = docs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= docs.length) return NO_MORE_DOCS;
    return docs[Math.min(docs.length - 1, lo | 127)];
  }

  blockImpacts(): Impact[] {
    return IMPACTS;
  }
}
