/**
 * Segment reading: SegmentCore parses one segment file (checksum, table of contents) and
 * decodes its parts lazily; SegmentView is the SegmentReader of the contract: a core plus
 * the deletion bitset of one commit snapshot. Cores are shared by all snapshots that
 * contain the segment and reference-counted so that their file is deleted only when
 * neither the commit point nor any searcher uses it.
 */
import { BoundedMap } from '../util/bounded-map.ts';
import { EngineError } from '../errors.ts';
import { SegmentFileReader } from './segment-file.ts';
import type { SegmentMeta } from './segment-writer.ts';
import { TermsReader } from '../termdict/terms-reader.ts';
import { BlockPostingsIterator, decodeSkip, type SkipData } from '../postings/postings-reader.ts';
import { BLOCK_SIZE, type TermMeta } from '../postings/postings-writer.ts';
import { KeywordColumnReader } from '../columns/columns-reader.ts';
import { KeysReader } from '../columns/keys.ts';
import { StoredReader } from '../store/stored-reader.ts';
import { decodePayload, type StoredPayload } from '../store/payload.ts';
import { DisplayReader } from '../store/display-store.ts';
import { NORM_TABLE } from '../similarity/norms.ts';
import type { FieldStats, PostingsIterator, SegmentReader, TermStats } from './types.ts';

const SKIP_CACHE_TERMS = 512;

export class SegmentCore {
  readonly id: string;
  readonly maxDoc: number;
  readonly meta: SegmentMeta;
  readonly sizeBytes: number;
  private readonly file: SegmentFileReader;
  private readonly termsCache = new Map<string, TermsReader>();
  private readonly normsCache = new Map<string, Uint8Array | null>();
  private readonly kwCache = new Map<string, KeywordColumnReader>();
  private keysReader: KeysReader | null = null;
  private storedReader: StoredReader | null = null;
  private displayReader: DisplayReader | null | undefined;
  private sigs: BigUint64Array | null = null;
  readonly pdoc: Uint8Array;
  readonly ppos: Uint8Array;
  private readonly skipCache = new BoundedMap<number, SkipData>(SKIP_CACHE_TERMS);

  /** Skip data of a term; decoded once and cached for long postings lists (bounded cache). */
  skipData(meta: TermMeta): SkipData | undefined {
    if (meta.docFreq < 8 * BLOCK_SIZE) return undefined;
    let s = this.skipCache.get(meta.docStart);
    if (!s) {
      s = decodeSkip(this.pdoc, meta);
      this.skipCache.set(meta.docStart, s);
    }
    return s;
  }

  /** References: the writer's current commit point and every snapshot using the core. */
  refCount = 0;

  constructor(bytes: Uint8Array, fileName: string) {
    this.file = new SegmentFileReader(bytes, fileName);
    this.meta = this.file.meta as SegmentMeta;
    if (!this.meta || typeof this.meta.maxDoc !== 'number')
      throw new EngineError('CORRUPT_INDEX', `segment ${fileName}: no meta`);
    this.id = this.meta.id;
    this.maxDoc = this.meta.maxDoc;
    this.sizeBytes = bytes.length;
    this.pdoc = this.file.u8('pdoc');
    this.ppos = this.file.u8('ppos');
  }

  /** The whole segment file image (read-only). */
  get bytes(): Uint8Array {
    return this.file.bytes;
  }

  textFields(): string[] {
    return Object.keys(this.meta.textFields);
  }

  fieldStats(field: string): FieldStats | null {
    const f = this.meta.textFields[field];
    return f ? { docCount: f.docCount, sumTotalTermFreq: f.sumTotalTermFreq } : null;
  }

  terms(field: string): TermsReader | null {
    let t = this.termsCache.get(field);
    if (!t) {
      const f = this.meta.textFields[field];
      if (!f) return null;
      t = new TermsReader(this.file.u8(`t:${field}:terms`), this.file.u32(`t:${field}:tidx`), f.termCount);
      this.termsCache.set(field, t);
    }
    return t;
  }

  norms(field: string): Uint8Array | null {
    let n = this.normsCache.get(field);
    if (n === undefined) {
      n = this.meta.textFields[field] ? this.file.u8(`t:${field}:norms`) : null;
      this.normsCache.set(field, n);
    }
    return n;
  }

  keywordColumn(field: string): KeywordColumnReader | null {
    let c = this.kwCache.get(field);
    if (!c) {
      if (!this.meta.keywordFields.includes(field)) return null;
      const p = `k:${field}:`;
      c = new KeywordColumnReader({
        vals: this.file.u8(p + 'vals'),
        dstart: this.file.u32(p + 'dstart'),
        ords: this.file.u32(p + 'ords'),
        vstart: this.file.u32(p + 'vstart'),
        vdocs: this.file.i32(p + 'vdocs'),
      });
      this.kwCache.set(field, c);
    }
    return c;
  }

  numericColumn(field: string): Float64Array | null {
    return this.meta.numericFields.includes(field) ? this.file.f64(`n:${field}`) : null;
  }

  keys(): KeysReader {
    if (!this.keysReader) {
      const f = this.file;
      this.keysReader = new KeysReader({
        kblob: f.u8('kblob'),
        koff: f.u32('koff'),
        khi: f.u32('khi'),
        klo: f.u32('klo'),
        kdoc: f.i32('kdoc'),
      });
    }
    return this.keysReader;
  }

  signatures(): BigUint64Array {
    if (!this.sigs) this.sigs = this.file.u64('sig');
    return this.sigs;
  }

  stored(): StoredReader {
    if (!this.storedReader) {
      this.storedReader = new StoredReader(
        this.file.u8('sdata'),
        this.file.i32('sfirst'),
        this.file.f64('soff'),
        this.maxDoc,
      );
    }
    return this.storedReader;
  }

  /** The display store (store/display-store.ts), null when the segment was written without one. */
  display(): DisplayReader | null {
    if (this.displayReader === undefined) {
      const fields = this.meta.displayFields;
      if (!Array.isArray(fields) || fields.length === 0) this.displayReader = null;
      else {
        const r = new DisplayReader(fields, this.file.u8('ddata'), this.file.f64('doff'));
        if (r.maxDoc !== this.maxDoc)
          throw new EngineError('CORRUPT_INDEX', `segment ${this.id}: display store size mismatch`);
        this.displayReader = r;
      }
    }
    return this.displayReader;
  }

  private lastPayload: { doc: number; value: StoredPayload } | null = null;

  /** Decoded stored payload of `doc` (the last one is cached: text() and stored() often follow each other). */
  payload(doc: number): StoredPayload {
    if (this.lastPayload?.doc === doc) return this.lastPayload.value;
    const value = decodePayload(this.stored().doc(doc));
    this.lastPayload = { doc, value };
    return value;
  }
}

/** Deletion bitset helpers (bit set = deleted). */
export function isDeletedIn(bits: Uint8Array | null, doc: number): boolean {
  return bits !== null && (bits[doc >>> 3] & (1 << (doc & 7))) !== 0;
}

export class SegmentView implements SegmentReader {
  readonly id: string;
  readonly maxDoc: number;
  readonly numDocs: number;

  constructor(
    readonly core: SegmentCore,
    /** Deletions of the snapshot (never mutated once the view exists), null = none. */
    readonly deletions: Uint8Array | null,
    delCount: number,
  ) {
    this.id = core.id;
    this.maxDoc = core.maxDoc;
    this.numDocs = core.maxDoc - delCount;
  }

  isDeleted(doc: number): boolean {
    return isDeletedIn(this.deletions, doc);
  }

  fieldStats(field: string): FieldStats | null {
    return this.core.fieldStats(field);
  }

  termStats(field: string, term: string): TermStats | null {
    const m = this.core.terms(field)?.lookup(term);
    return m ? { docFreq: m.docFreq, totalTermFreq: m.totalTermFreq } : null;
  }

  *terms(field: string, prefix?: string): Iterable<string> {
    const t = this.core.terms(field);
    if (!t) return;
    for (const e of t.entries(prefix)) {
      if (prefix !== undefined && !e.term.startsWith(prefix)) return;
      yield e.term;
    }
  }

  postings(field: string, term: string, withPositions: boolean): PostingsIterator | null {
    const m = this.core.terms(field)?.lookup(term);
    if (!m) return null;
    return new BlockPostingsIterator(this.core.pdoc, this.core.ppos, m, withPositions, this.core.skipData(m));
  }

  norms(field: string): Uint8Array | null {
    return this.core.norms(field);
  }

  fieldLength(field: string, doc: number): number {
    const n = this.core.norms(field);
    return n ? NORM_TABLE[n[doc]] : 0;
  }

  keywords(field: string, doc: number): readonly string[] {
    return this.core.keywordColumn(field)?.valuesOf(doc) ?? [];
  }

  keywordValues(field: string): readonly string[] {
    return this.core.keywordColumn(field)?.allValues() ?? [];
  }

  keywordDocs(field: string, value: string): PostingsIterator | null {
    return this.core.keywordColumn(field)?.postings(value) ?? null;
  }

  numeric(field: string, doc: number): number | undefined {
    const col = this.core.numericColumn(field);
    if (!col) return undefined;
    const v = col[doc];
    return Number.isNaN(v) ? undefined : v;
  }

  key(doc: number): string {
    return this.core.keys().key(doc);
  }

  stored(doc: number): Record<string, unknown> {
    return this.core.payload(doc).s ?? {};
  }

  /** Stored fields `names` of `doc` from the display store; null when it lacks one of them (read stored()). */
  storedFields(doc: number, names: readonly string[]): Record<string, unknown> | null {
    const d = this.core.display();
    return d !== null && d.covers(names) ? d.values(doc, names) : null;
  }

  text(doc: number): Record<string, string> {
    return this.core.payload(doc).t ?? {};
  }

  language(doc: number): 'de' | 'en' {
    return this.core.payload(doc).l === 'en' ? 'en' : 'de';
  }

  signature(doc: number): bigint {
    return this.core.signatures()[doc];
  }

  signatures(): BigUint64Array {
    return this.core.signatures();
  }

  /** Live doc with `key` in this snapshot, or -1. */
  findKey(key: string): number {
    for (const d of this.core.keys().find(key)) if (!this.isDeleted(d)) return d;
    return -1;
  }
}
