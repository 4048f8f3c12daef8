/**
 * In-memory SegmentReader for query-layer tests: built from analyzed docs,
 * implementing the whole read contract (postings with positions, small blocks
 * with impacts, one-byte norms, keyword/numeric columns, stored fields,
 * deletions, a SimHash signature). Tiny blocks make block-max pruning visible.
 */
import { xxh64 } from '@node-rs/xxhash';
import type { Language, Token } from '../../../engine/analysis/types.ts';
import { byte4ToInt, intToByte4 } from '../../../engine/similarity/norms.ts';
import { NO_MORE_DOCS } from '../../../engine/segment/types.ts';
import type { FieldStats, Impact, PostingsIterator, SegmentReader, TermStats } from '../../../engine/segment/types.ts';

export interface MemDoc {
  key: string;
  language?: Language;
  text: Record<string, string>;
  keywords?: Record<string, string[]>;
  numbers?: Record<string, number>;
  stored?: Record<string, unknown>;
}

interface TermData {
  docs: number[];
  freqs: number[];
  positions: Int32Array[];
}

class MemPostings implements PostingsIterator {
  private i = -1;
  private block = -1;

  constructor(
    private readonly d: TermData,
    private readonly blockSize: number,
    private readonly norms: (doc: number) => number,
  ) {}

  docID(): number {
    return this.i < 0 ? -1 : this.i >= this.d.docs.length ? NO_MORE_DOCS : this.d.docs[this.i];
  }
  nextDoc(): number {
    this.i++;
    return this.docID();
  }
  advance(target: number): number {
    this.i = this.firstAtLeast(target, Math.max(this.i, 0));
    return this.docID();
  }
  /** Index of the first doc >= target at or after `from` (binary search). */
  private firstAtLeast(target: number, from: number): number {
    let lo = from;
    let hi = this.d.docs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.d.docs[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  freq(): number {
    return this.d.freqs[this.i];
  }
  positions(): Int32Array {
    return this.d.positions[this.i];
  }
  cost(): number {
    return this.d.docs.length;
  }
  advanceShallow(target: number): number {
    const j = this.firstAtLeast(target, 0);
    if (j >= this.d.docs.length) {
      this.block = -1;
      return NO_MORE_DOCS;
    }
    this.block = Math.floor(j / this.blockSize);
    return this.d.docs[Math.min((this.block + 1) * this.blockSize, this.d.docs.length) - 1];
  }
  blockImpacts(): Impact[] {
    if (this.block < 0) return [];
    const out: Impact[] = [];
    const end = Math.min((this.block + 1) * this.blockSize, this.d.docs.length);
    for (let j = this.block * this.blockSize; j < end; j++)
      out.push({ freq: this.d.freqs[j], norm: this.norms(this.d.docs[j]) });
    return out;
  }
}

export interface MemorySegmentOptions {
  analyze: (text: string, lang: Language) => Token[];
  /** Docs per postings block (default 4, to exercise block bounds). */
  blockSize?: number;
  deleted?: Iterable<number>;
  language?: Language;
  /** Offer the optional `norms()` fast path (default true). */
  withNorms?: boolean;
}

export function simhash64(tokens: readonly string[]): bigint {
  const v = new Int32Array(64);
  for (const t of tokens) {
    const h = xxh64(t);
    for (let b = 0; b < 64; b++) v[b] += (h >> BigInt(b)) & 1n ? 1 : -1;
  }
  let out = 0n;
  for (let b = 0; b < 64; b++) if (v[b] > 0) out |= 1n << BigInt(b);
  return out;
}

export function memorySegment(id: string, docs: MemDoc[], opts: MemorySegmentOptions): SegmentReader {
  const blockSize = opts.blockSize ?? 4;
  const deleted = new Set(opts.deleted ?? []);
  const postings = new Map<string, Map<string, TermData>>();
  const norms = new Map<string, Uint8Array>();
  const fstats = new Map<string, FieldStats>();
  const kw = new Map<string, Map<string, TermData>>();
  const terms: string[][] = [];
  const sigs = new Map<number, bigint>();
  docs.forEach((doc, d) => {
    const all: string[] = [];
    for (const [field, text] of Object.entries(doc.text)) {
      const toks = opts.analyze(text, doc.language ?? opts.language ?? 'en');
      if (!postings.has(field)) {
        postings.set(field, new Map());
        norms.set(field, new Uint8Array(docs.length));
        fstats.set(field, { docCount: 0, sumTotalTermFreq: 0 });
      }
      const fs = fstats.get(field)!;
      if (toks.length > 0) {
        fs.docCount++;
        fs.sumTotalTermFreq += toks.length;
      }
      norms.get(field)![d] = intToByte4(toks.length);
      const byTerm = new Map<string, number[]>();
      for (const t of toks) {
        all.push(t.term);
        const p = byTerm.get(t.term) ?? [];
        p.push(t.position);
        byTerm.set(t.term, p);
      }
      const pf = postings.get(field)!;
      for (const [term, pos] of byTerm) {
        let td = pf.get(term);
        if (!td) pf.set(term, (td = { docs: [], freqs: [], positions: [] }));
        td.docs.push(d);
        td.freqs.push(pos.length);
        td.positions.push(Int32Array.from(pos));
      }
    }
    for (const [field, values] of Object.entries(doc.keywords ?? {})) {
      if (!kw.has(field)) kw.set(field, new Map());
      for (const v of new Set(values)) {
        const m = kw.get(field)!;
        let td = m.get(v);
        if (!td) m.set(v, (td = { docs: [], freqs: [], positions: [] }));
        td.docs.push(d);
        td.freqs.push(1);
        td.positions.push(new Int32Array(0));
      }
    }
    terms.push(all);
  });
  const fieldLength = (field: string, doc: number): number => {
    const n = norms.get(field);
    return n ? byte4ToInt(n[doc]) : 0;
  };
  return {
    id,
    maxDoc: docs.length,
    numDocs: docs.length - [...deleted].filter((d) => d < docs.length).length,
    isDeleted: (doc) => deleted.has(doc),
    fieldStats: (field) => fstats.get(field) ?? null,
    termStats: (field, term): TermStats | null => {
      const td = postings.get(field)?.get(term);
      return td ? { docFreq: td.docs.length, totalTermFreq: td.freqs.reduce((a, b) => a + b, 0) } : null;
    },
    terms: (field, prefix = '') => [...(postings.get(field)?.keys() ?? [])].filter((t) => t.startsWith(prefix)).sort(),
    postings: (field, term) => {
      const td = postings.get(field)?.get(term);
      return td ? new MemPostings(td, blockSize, (doc) => fieldLength(field, doc)) : null;
    },
    fieldLength,
    ...(opts.withNorms === false ? {} : { norms: (field: string) => norms.get(field) ?? null }),
    keywords: (field, doc) => docs[doc].keywords?.[field] ?? [],
    keywordDocs: (field, value) => {
      const td = kw.get(field)?.get(value);
      return td ? new MemPostings(td, blockSize, () => 1) : null;
    },
    numeric: (field, doc) => docs[doc].numbers?.[field],
    key: (doc) => docs[doc].key,
    stored: (doc) => ({ ...(docs[doc].stored ?? {}) }),
    text: (doc) => ({ ...docs[doc].text }),
    language: (doc) => docs[doc].language ?? opts.language ?? 'en',
    signature: (doc) => {
      let sig = sigs.get(doc);
      if (sig === undefined) sigs.set(doc, (sig = simhash64(terms[doc])));
      return sig;
    },
  };
}
