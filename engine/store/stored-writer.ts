/**
 * Stored-field store writer: documents (JSON strings) packed into blocks of about
 * STORED_BLOCK_CHARS characters, each block compressed with raw DEFLATE (zlib level 1).
 *
 * Codec choice: DEFLATE is built into Node (no dependency; zstd is not in Node 20); level 1
 * compresses dictionary/prose text about 2.7-2.9x. Block size: every stored-field read (a hit,
 * each entry of its related lists) inflates and decodes its whole block, so 8 KB blocks read
 * in about half the time of 16 KB ones for about 5% more bytes (measured on the scale set's
 * documents; 4 KB blocks would save little more read time and cost many more compressor calls).
 * Compression runs on a worker thread while the indexing thread keeps analysing documents
 * (compressor.ts).
 *
 * Block (before compression): varint n, n x varint docLength (UTF-16 code units), then the
 * docs' UTF-8 text back to back (one encode per block; a reader decodes the block once and slices).
 * Sections: data (compressed blocks back to back), firstDoc per block (Int32), offsets (Float64, n+1).
 * With `displayFields`, the writer also keeps those stored fields of every doc in a display
 * store (display-store.ts: uncompressed, read without inflating a block).
 */
import { ByteWriter } from '../segment/bytes.ts';
import { closeWriter, compressBlock, openWriter } from './compressor.ts';
import { decodePayload, writePayload } from './payload.ts';
import { DisplayWriter, type DisplaySections } from './display-store.ts';
import type { Language } from '../analysis/types.ts';

export const STORED_BLOCK_CHARS = 8 * 1024;

export interface StoredBlocks {
  data: Uint8Array[];
  firstDocs: Int32Array;
  offsets: Float64Array;
  /** The display store, when the writer was given display fields. */
  display?: DisplaySections;
}

export interface StoredWriterOptions {
  /** Stored fields also kept in the display store (display-store.ts). Default none (no display store). */
  displayFields?: readonly string[];
}

const scratch = new ByteWriter(64 * 1024);

export class StoredWriter {
  /** The open block: UTF-8 of its docs back to back, and each doc's length in UTF-16 units. */
  private readonly text = new ByteWriter(32 * 1024);
  private lengths: number[] = [];
  private pendingChars = 0;
  private nextDoc = 0;
  private blockFirst = 0;
  private readonly firstDocs: number[] = [];
  private readonly blocks: Promise<Uint8Array>[] = [];
  private readonly display: DisplayWriter | null;
  /** finish() has reported this writer closed to the compressor. */
  private closed = false;

  constructor(options: StoredWriterOptions = {}) {
    const fields = options.displayFields ?? [];
    this.display = fields.length > 0 ? new DisplayWriter(fields) : null;
  }

  /** The display fields (empty without a display store). */
  get displayFields(): readonly string[] {
    return this.display?.fields ?? [];
  }

  /**
   * Appends the next doc as its payload string (doc ids are implicit, 0, 1, 2...). With a display
   * store, `displayRecord` is the doc's display record for this writer's display fields when the
   * caller has it (copied from a segment with the same fields); else it is made from the payload.
   */
  add(doc: string, displayRecord?: string): void {
    if (this.display) {
      if (displayRecord !== undefined) this.display.addRecord(displayRecord);
      else this.display.add(decodePayload(doc).s);
    }
    this.text.utf8(doc);
    this.added(doc.length);
  }

  /**
   * Appends the next doc as the payload encodePayload(lang, text, stored) (payload.ts), written
   * without building the string; returns its length in UTF-16 units.
   */
  addPayload(lang: Language, text: Record<string, string>, stored: Record<string, unknown>): number {
    const length = writePayload(this.text, lang, text, stored);
    this.display?.add(stored);
    this.added(length);
    return length;
  }

  private added(length: number): void {
    if (this.nextDoc === 0) openWriter();
    if (this.lengths.length === 0) this.blockFirst = this.nextDoc;
    this.lengths.push(length);
    this.pendingChars += length;
    this.nextDoc++;
    if (this.pendingChars >= STORED_BLOCK_CHARS) this.seal();
  }

  get docCount(): number {
    return this.nextDoc;
  }

  /** Waits for all compressions and returns the sections. */
  async finish(): Promise<StoredBlocks> {
    this.seal();
    let data: Uint8Array[];
    try {
      data = await Promise.all(this.blocks);
    } finally {
      if (this.nextDoc > 0 && !this.closed) {
        this.closed = true;
        await closeWriter();
      }
    }
    const offsets = new Float64Array(data.length + 1);
    for (let i = 0; i < data.length; i++) offsets[i + 1] = offsets[i] + data[i].length;
    const out: StoredBlocks = { data, firstDocs: Int32Array.from(this.firstDocs), offsets };
    if (this.display) out.display = this.display.finish();
    return out;
  }

  private seal(): void {
    const lengths = this.lengths;
    if (lengths.length === 0) return;
    const w = scratch;
    w.reset();
    w.varint(lengths.length);
    for (let i = 0; i < lengths.length; i++) w.varint(lengths[i]);
    w.copy(this.text.buf, 0, this.text.length);
    this.firstDocs.push(this.blockFirst);
    const p = compressBlock(w.toBytes());
    p.catch(() => undefined); // observed in finish()
    this.blocks.push(p);
    this.lengths = [];
    this.pendingChars = 0;
    this.text.reset();
  }
}
