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
import { ByteWriter } from '../util/bytes.ts';
import { takeScratch } from '../util/scratch.ts';
import { closeWriter, collectBlocks, compressBlockTo, openWriter, type BlockSink } from './compressor.ts';
import { decodePayload, writePayload } from './payload.ts';
import { DisplayWriter, type DisplaySections } from './display-store.ts';
import type { Language } from '../analysis/types.ts';

export const STORED_BLOCK_CHARS = 8 * 1024;

export interface StoredBlocks {
  /** The compressed blocks back to back (split into chunks at arbitrary points). */
  data: Uint8Array[];
  firstDocs: Int32Array;
  offsets: Float64Array;
  /** The display store, when the writer was given display fields. */
  display?: DisplaySections;
  /** Flush scratch under `data` (util/scratch.ts), to give back once `data` is copied. */
  scratch?: Uint8Array[];
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
  /** Compressed blocks appended in block order (blockEnds[i] = end of block i in `out`). */
  private readonly out = new ChunkedBytes();
  private readonly blockEnds: number[] = [];
  /** Blocks sealed / delivered; results that overtook earlier blocks wait in `early`. */
  private sealed = 0;
  private delivered = 0;
  private readonly early = new Map<number, Uint8Array>();
  private error: Error | null = null;
  private onAllDelivered: (() => void) | null = null;
  private readonly display: DisplayWriter | null;
  /** finish() has reported this writer closed to the compressor. */
  private closed = false;
  /** The sections, once made (finish and tryFinish give the same object). */
  private result: StoredBlocks | null = null;

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
    if (this.delivered < this.sealed) await new Promise<void>((resolve) => (this.onAllDelivered = resolve));
    if (this.nextDoc > 0 && !this.closed) {
      this.closed = true;
      await closeWriter();
    }
    return this.sections();
  }

  /**
   * finish() without waiting: the sections when every block has been compressed by now (results
   * are collected first), else null (ask again later, or await finish()). For a segment sealed
   * inside a bulk load, which completes it on one of the following adds: the compressor is kept
   * for the next segment.
   */
  tryFinish(): StoredBlocks | null {
    this.seal();
    if (this.delivered < this.sealed) collectBlocks();
    if (this.delivered < this.sealed) return null;
    if (this.nextDoc > 0 && !this.closed) {
      this.closed = true;
      void closeWriter(true);
    }
    return this.sections();
  }

  private sections(): StoredBlocks {
    if (this.result) return this.result;
    if (this.error) throw this.error;
    if (this.delivered < this.sealed) throw new Error('stored blocks still compressing');
    const n = this.blockEnds.length;
    const offsets = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = this.blockEnds[i];
    const out: StoredBlocks = {
      data: this.out.views(),
      firstDocs: Int32Array.from(this.firstDocs),
      offsets,
      scratch: this.out.buffers(),
    };
    if (this.display) out.display = this.display.finish();
    this.result = out;
    return out;
  }

  /** The compressor's sink for this writer's blocks (tagged with their index). */
  private readonly sink: BlockSink = (bytes, err, i) => this.deliver(i, bytes, err);

  /** Receives block `i`'s compressed bytes (a transient view) and appends what is now in order. */
  private deliver(i: number, bytes: Uint8Array | null, err?: Error): void {
    if (!bytes) this.error ??= err ?? new Error('compression failed');
    if (i !== this.blockEnds.length) {
      this.early.set(i, bytes ? bytes.slice() : EMPTY);
    } else {
      this.append(bytes ?? EMPTY);
      for (let next = this.early.get(this.blockEnds.length); next; next = this.early.get(this.blockEnds.length)) {
        this.early.delete(this.blockEnds.length);
        this.append(next);
      }
    }
    this.delivered++;
    if (this.delivered === this.sealed && this.onAllDelivered) {
      const resolve = this.onAllDelivered;
      this.onAllDelivered = null;
      resolve();
    }
  }

  private append(bytes: Uint8Array): void {
    this.out.append(bytes);
    this.blockEnds.push(this.out.length);
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
    const i = this.sealed++;
    compressBlockTo(w.view(), this.sink, i);
    this.lengths = [];
    this.pendingChars = 0;
    this.text.reset();
  }
}

const EMPTY = new Uint8Array(0);

/** Append-only bytes in chunks of CHUNK_BYTES (no regrowth copies; one chunk per ~CHUNK_BYTES of output). */
class ChunkedBytes {
  private readonly chunks: Uint8Array[] = [];
  private cur: Uint8Array = EMPTY;
  private used = 0;
  length = 0;

  append(b: Uint8Array): void {
    let off = 0;
    while (off < b.length) {
      if (this.used === this.cur.length) {
        if (this.cur.length > 0) this.chunks.push(this.cur);
        this.cur = takeScratch(CHUNK_BYTES);
        this.used = 0;
      }
      const n = Math.min(b.length - off, this.cur.length - this.used);
      this.cur.set(off === 0 && n === b.length ? b : b.subarray(off, off + n), this.used);
      this.used += n;
      off += n;
    }
    this.length += b.length;
  }

  /** The whole chunk buffers (flush scratch). */
  buffers(): Uint8Array[] {
    return this.cur.length > 0 ? [...this.chunks, this.cur] : this.chunks.slice();
  }

  /** The bytes as views (the last chunk's used part). */
  views(): Uint8Array[] {
    const out = this.chunks.slice();
    if (this.used > 0) out.push(this.cur.subarray(0, this.used));
    return out;
  }
}

/** Output chunk size of the stored-block store (a segment's sdata is a few of them). */
const CHUNK_BYTES = 256 * 1024;
