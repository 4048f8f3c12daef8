/**
 * Columnar per-document values for filters.
 *
 * Keyword column (multi-valued, dictionary-encoded), sections per field:
 *   vals   : varint count, count x length-prefixed UTF-8 values in JS string order (ordinal = rank)
 *   dstart : Uint32[maxDoc+1], doc d's ordinals are ords[dstart[d] .. dstart[d+1])  (ascending, unique)
 *   ords   : Uint32[]
 *   vstart : Uint32[count+1], the docs carrying ordinal o are vdocs[vstart[o] .. vstart[o+1])
 *   vdocs  : Int32[] ascending per value (the inverted list behind keywordDocs())
 * Numeric column: Float64[maxDoc], NaN = no value.
 */
import { ByteWriter } from '../util/bytes.ts';
import { IntList } from '../util/growable.ts';

export interface KeywordColumnSections {
  vals: Uint8Array;
  dstart: Uint32Array;
  ords: Uint32Array;
  vstart: Uint32Array;
  vdocs: Int32Array;
}

export class KeywordColumnWriter {
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [];
  private readonly docs = new IntList(256);
  private readonly ords = new IntList(256);
  private lastDoc = -1;

  /** Values of `doc` (docs ascending; a doc may be given once). Duplicates are ignored. */
  add(doc: number, values: readonly string[]): void {
    if (doc <= this.lastDoc) throw new Error('keyword column docs must ascend');
    this.lastDoc = doc;
    const start = this.ords.length;
    for (const v of values) {
      let id = this.ids.get(v);
      if (id === undefined) {
        id = this.values.length;
        this.ids.set(v, id);
        this.values.push(v);
      }
      let dup = false;
      for (let i = start; i < this.ords.length; i++) if (this.ords.data[i] === id) dup = true;
      if (dup) continue;
      this.docs.push(doc);
      this.ords.push(id);
    }
  }

  /** Docs (ascending) given `value` so far (linear scan; used by buffered deleteByKeyword). */
  docsWithValue(value: string): number[] {
    const id = this.ids.get(value);
    if (id === undefined) return [];
    const out: number[] = [];
    for (let i = 0; i < this.ords.length; i++) if (this.ords.data[i] === id) out.push(this.docs.data[i]);
    return out;
  }

  /** Values given to `doc` so far (a scan from the end; the buffer is append-only). */
  valuesOf(doc: number): string[] {
    const out: string[] = [];
    for (let i = this.ords.length - 1; i >= 0 && this.docs.data[i] >= doc; i--) {
      if (this.docs.data[i] === doc) out.unshift(this.values[this.ords.data[i]]);
    }
    return out;
  }

  finish(maxDoc: number): KeywordColumnSections {
    const count = this.values.length;
    const order = Array.from({ length: count }, (_, i) => i);
    const values = this.values;
    order.sort((a, b) => (values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : 0));
    const rank = new Uint32Array(count);
    for (let r = 0; r < count; r++) rank[order[r]] = r;
    const vals = new ByteWriter(64 + count * 8);
    vals.varint(count);
    for (const o of order) vals.string(values[o]);

    const n = this.ords.length;
    const docs = this.docs.data;
    const rawOrds = this.ords.data;
    const dstart = new Uint32Array(maxDoc + 1);
    for (let i = 0; i < n; i++) dstart[docs[i] + 1]++;
    for (let d = 0; d < maxDoc; d++) dstart[d + 1] += dstart[d];
    const ords = new Uint32Array(n);
    for (let i = 0; i < n; i++) ords[i] = rank[rawOrds[i]];
    for (let d = 0; d < maxDoc; d++) {
      const s = dstart[d];
      const e = dstart[d + 1];
      if (e - s > 1) ords.subarray(s, e).sort();
    }
    const vstart = new Uint32Array(count + 1);
    for (let i = 0; i < n; i++) vstart[ords[i] + 1]++;
    for (let o = 0; o < count; o++) vstart[o + 1] += vstart[o];
    const fill = vstart.slice(0, count);
    const vdocs = new Int32Array(n);
    for (let i = 0; i < n; i++) vdocs[fill[ords[i]]++] = docs[i];
    return { vals: vals.toBytes(), dstart, ords, vstart, vdocs };
  }
}
