/**
 * Segment writer: assembles the codecs of one immutable segment into one file
 * (segment-file.ts). Callers (the indexing buffer and the merger) feed it:
 * text fields (norms + terms in order with their postings), keyword and numeric
 * columns, keys, SimHash signatures and the stored-field blocks.
 *
 * Section names: pdoc / ppos (postings streams of all fields), t:<field>:terms|tidx|norms,
 * k:<field>:vals|dstart|ords|vstart|vdocs, n:<field>, kblob|koff|khi|klo|kdoc, sig, sdata|sfirst|soff,
 * and, when the stored fields come with a display store (store/display-store.ts), ddata|doff with
 * the field names in the meta's `displayFields` (segments without them have no display store).
 */
import { sharedBytes } from '../directory/shared-bytes.ts';
import { giveScratch } from '../util/scratch.ts';
import { PostingsWriter } from '../postings/postings-writer.ts';
import { TermsWriter } from '../termdict/terms-writer.ts';
import { SegmentFileWriter } from './segment-file.ts';
import type { KeywordColumnSections } from '../columns/columns-writer.ts';
import type { KeySections } from '../columns/keys.ts';
import type { StoredBlocks } from '../store/stored-writer.ts';
import type { FieldStats } from './types.ts';

export interface TextFieldMeta extends FieldStats {
  termCount: number;
}

export interface SegmentMeta {
  id: string;
  maxDoc: number;
  textFields: Record<string, TextFieldMeta>;
  keywordFields: string[];
  numericFields: string[];
  /** Fields of the display store (absent: the segment has none). */
  displayFields?: string[];
}

/** A finished segment file: its chunks, total size and meta. */
export interface SegmentChunks {
  chunks: Uint8Array[];
  size: number;
  meta: SegmentMeta;
  /**
   * Gives the scratch buffers under the chunks back to the flush scratch pool (util/scratch.ts).
   * Call it once the chunks are copied (concatChunks) or written, and use no chunk afterwards.
   */
  recycle(): void;
}

export class SegmentWriter {
  readonly postings: PostingsWriter;
  private readonly file = new SegmentFileWriter();
  private readonly meta: SegmentMeta;
  private readonly terms: TermsWriter[] = [];
  private storedScratch: Uint8Array[] = [];

  /** `hint` (optional): token and term counts, to size the postings streams up front. */
  constructor(
    id: string,
    readonly maxDoc: number,
    hint?: { tokens: number; terms: number },
  ) {
    this.postings = hint
      ? new PostingsWriter((hint.tokens >>> 1) + 12 * hint.terms + 1024, hint.tokens + (hint.tokens >>> 3) + 1024)
      : new PostingsWriter();
    this.meta = { id, maxDoc, textFields: {}, keywordFields: [], numericFields: [] };
  }

  /** Records a finished text field: its norms (one byte per doc) and its term dictionary. */
  addTextField(name: string, norms: Uint8Array, terms: TermsWriter, stats: FieldStats): void {
    this.file.add(`t:${name}:terms`, terms.data.view());
    this.file.add(`t:${name}:tidx`, terms.index());
    this.file.add(`t:${name}:norms`, norms);
    this.terms.push(terms);
    this.meta.textFields[name] = { ...stats, termCount: terms.count };
  }

  addKeywordColumn(name: string, s: KeywordColumnSections): void {
    this.file.add(`k:${name}:vals`, s.vals);
    this.file.add(`k:${name}:dstart`, s.dstart);
    this.file.add(`k:${name}:ords`, s.ords);
    this.file.add(`k:${name}:vstart`, s.vstart);
    this.file.add(`k:${name}:vdocs`, s.vdocs);
    this.meta.keywordFields.push(name);
  }

  addNumericColumn(name: string, values: Float64Array): void {
    this.file.add(`n:${name}`, values);
    this.meta.numericFields.push(name);
  }

  setKeys(s: KeySections): void {
    this.file.add('kblob', s.kblob);
    this.file.add('koff', s.koff);
    this.file.add('khi', s.khi);
    this.file.add('klo', s.klo);
    this.file.add('kdoc', s.kdoc);
  }

  setSignatures(sigs: BigUint64Array): void {
    this.file.add('sig', sigs);
  }

  setStored(s: StoredBlocks): void {
    this.file.add('sdata', s.data);
    this.file.add('sfirst', s.firstDocs);
    this.file.add('soff', s.offsets);
    this.storedScratch = s.scratch ?? [];
    if (s.display) {
      this.file.add('ddata', s.display.data);
      this.file.add('doff', s.display.offsets);
      this.meta.displayFields = s.display.fields;
    }
  }

  /** Completes the file: chunks to write and total size. */
  finish(): SegmentChunks {
    this.file.add('pdoc', this.postings.docOut.view());
    this.file.add('ppos', this.postings.posOut.view());
    const { chunks, size } = this.file.finish(this.meta);
    const recycle = (): void => {
      this.postings.recycle();
      for (const t of this.terms) t.data.recycle();
      for (const b of this.storedScratch) giveScratch(b);
      this.terms.length = 0;
      this.storedScratch = [];
    };
    return { chunks, size, meta: this.meta, recycle };
  }
}

/** File name of a segment. */
export function segmentFileName(id: string): string {
  return `${id}.seg`;
}

/**
 * Concatenates file chunks into one 8-byte-aligned buffer (the in-memory image a SegmentCore
 * reads), in shared memory (directory/shared-bytes.ts).
 */
export function concatChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = sharedBytes(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
