/**
 * Readers of the columns in columns-writer.ts. Value dictionaries are decoded on first
 * use of a column; everything else is a zero-copy typed-array view of the segment file.
 */
import { ByteReader } from '../util/bytes.ts';
import { ArrayPostingsIterator } from '../postings/array-postings.ts';
import type { KeywordColumnSections } from './columns-writer.ts';
import type { PostingsIterator } from '../segment/types.ts';

const NONE: readonly string[] = Object.freeze([]);

export class KeywordColumnReader {
  private values: string[] | null = null;

  constructor(private readonly s: KeywordColumnSections) {}

  private dict(): string[] {
    if (!this.values) {
      const r = new ByteReader(this.s.vals);
      const n = r.varint();
      const out: string[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = r.string();
      this.values = out;
    }
    return this.values;
  }

  /** Ordinal of `value`, or -1. */
  ord(value: string): number {
    const vals = this.dict();
    let lo = 0;
    let hi = vals.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = vals[mid];
      if (v === value) return mid;
      if (v < value) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  valuesOf(doc: number): readonly string[] {
    const { dstart, ords } = this.s;
    if (doc < 0 || doc + 1 >= dstart.length) return NONE;
    const s = dstart[doc];
    const e = dstart[doc + 1];
    if (s === e) return NONE;
    const vals = this.dict();
    const out: string[] = [];
    for (let i = s; i < e; i++) out.push(vals[ords[i]]);
    return out;
  }

  /** Docs (ascending) carrying `value`, as a view. */
  docsOf(value: string): Int32Array | null {
    const o = this.ord(value);
    if (o < 0) return null;
    return this.s.vdocs.subarray(this.s.vstart[o], this.s.vstart[o + 1]);
  }

  postings(value: string): PostingsIterator | null {
    const docs = this.docsOf(value);
    return docs ? new ArrayPostingsIterator(docs) : null;
  }

  /** All distinct values of the column, in order. */
  allValues(): readonly string[] {
    return this.dict();
  }
}
