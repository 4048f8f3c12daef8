/**
 * The byte scanner behind push-body.ts: follows the JSON structure of a push body
 * just enough to know where `documents[i].body.binary_base64` strings are (frames of
 * the first levels: object or array, role, current key, item index), copies the
 * rest of the body to `out` as it is, and sends every such string longer than the
 * spool threshold through a Base64Stream into a blob file, writing a placeholder in
 * its place. Strings elsewhere are skipped with `indexOf` of the closing quote.
 */
import { RequestValidationError } from '../errors.ts';
import { Base64Stream, unescape, utf16Length } from './base64-stream.ts';
import type { BlobRef } from './blobs.ts';
import type { PushBodyOptions } from './push-body.ts';
import { SpooledBinary, tooLargeMessage } from './spooled.ts';

/** Binaries whose JSON string is longer than this are stored in blob files (and bodies up to it are read whole). */
export const SPOOL_ABOVE_BYTES = 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const enum Role {
  Other,
  Top,
  Docs,
  Doc,
  Body,
}

interface Frame {
  obj: boolean;
  role: Role;
  expectKey: boolean;
  key: string | null;
  /** Elements seen (arrays). */
  index: number;
  /** Item index of a Doc frame (-1: the single form). */
  item: number;
}

/** Frames kept explicitly; deeper containers only count depth (nothing there is ever diverted). */
const MAX_FRAMES = 8;
const KEYS = new Set(['documents', 'body', 'binary_base64']);

/** A growable byte buffer; it grows by doubling, but not past `limit` (the body's announced length) while that suffices. */
class Bytes {
  buf = new Uint8Array(64 * 1024);
  length = 0;
  constructor(private readonly limit = Infinity) {}
  push(bytes: Uint8Array): void {
    const needed = this.length + bytes.byteLength;
    if (needed > this.buf.byteLength) {
      const doubled = this.buf.byteLength * 2;
      const grown = new Uint8Array(Math.max(needed, needed <= this.limit ? Math.min(doubled, this.limit) : doubled));
      grown.set(this.buf.subarray(0, this.length));
      this.buf = grown;
    }
    this.buf.set(bytes, this.length);
    this.length += bytes.byteLength;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Index of `byte` in `chunk` from `from`, or the chunk's length. */
function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const k = chunk.indexOf(byte, from);
  return k < 0 ? chunk.byteLength : k;
}

export class Scanner {
  readonly out: Bytes;
  readonly spooled: SpooledBinary[] = [];
  private readonly frames: Frame[] = [];
  private depth = 0;
  state: 'json' | 'key' | 'string' | 'pending' | 'divert' = 'json';
  /** Backslash parity carried across chunks inside a skipped string. */
  private escaped = false;
  private keyBytes: number[] = [];
  private keyPlain = true;
  private pending = new Bytes();
  private pendingItem = -1;
  private diversion: Base64Stream | null = null;
  private single = false;
  private readonly spoolAbove: number;

  constructor(private readonly options: PushBodyOptions) {
    this.spoolAbove = options.spoolAboveBytes ?? SPOOL_ABOVE_BYTES;
    this.out = new Bytes(options.sizeHint);
  }

  /** The state, read where a call may have changed it (no narrowing). */
  private inState(state: Scanner['state']): boolean {
    return this.state === state;
  }

  private get frame(): Frame | undefined {
    return this.depth > 0 && this.depth <= MAX_FRAMES ? this.frames[this.depth - 1] : undefined;
  }

  async write(chunk: Uint8Array): Promise<void> {
    let i = 0;
    let copyFrom = 0;
    const n = chunk.byteLength;
    while (i < n) {
      if (this.state === 'string' || this.state === 'key') {
        const end = this.skipString(chunk, i);
        if (this.state === 'key') this.collectKey(chunk, i, end < 0 ? n : end - 1);
        if (end < 0) break;
        if (this.state === 'key') this.endKey();
        this.state = 'json';
        i = end;
        continue;
      }
      if (this.state === 'pending' || this.state === 'divert') {
        this.out.push(chunk.subarray(copyFrom, i));
        i = await this.candidate(chunk, i);
        copyFrom = i;
        continue;
      }
      const b = chunk[i++];
      if (b === QUOTE) this.startString();
      else if (b === 0x7b || b === 0x5b) this.open(b === 0x7b);
      else if (b === 0x7d || b === 0x5d) this.close();
      else if (b === 0x3a) {
        const f = this.frame;
        if (f?.obj) f.expectKey = false;
      } else if (b === 0x2c) {
        const f = this.frame;
        if (f?.obj) {
          f.expectKey = true;
          f.key = null;
        } else if (f) f.index++;
      }
      if (this.inState('pending')) {
        // The opening quote of a candidate is written with its value (or its placeholder).
        this.out.push(chunk.subarray(copyFrom, i - 1));
        copyFrom = i;
      }
    }
    if (this.state !== 'pending' && this.state !== 'divert') this.out.push(chunk.subarray(copyFrom, n));
  }

  async end(): Promise<void> {
    if (this.state === 'pending') {
      this.out.push(new Uint8Array([QUOTE]));
      this.out.push(this.pending.view());
    }
    if (this.diversion) await this.finishDiversion();
  }

  /** Removes every blob written so far (the push failed before its documents were queued). */
  async discard(): Promise<void> {
    await this.diversion?.writer?.abort();
    this.diversion = null;
    await Promise.all(this.spooled.map((s) => s.discard()));
  }

  private startString(): void {
    const f = this.frame;
    if (f?.obj && f.expectKey) {
      this.state = 'key';
      this.keyBytes = [];
      this.keyPlain = true;
    } else if (f?.obj && f.role === Role.Body && f.key === 'binary_base64') {
      this.state = 'pending';
      this.pending = new Bytes();
      this.pendingItem = this.itemIndex();
    } else this.state = 'string';
    this.escaped = false;
  }

  /** Item index of the Doc frame above the current Body frame. */
  private itemIndex(): number {
    return this.frames[this.depth - 2]?.item ?? -1;
  }

  private open(obj: boolean): void {
    const parent = this.frame;
    let role = Role.Other;
    let item = -1;
    if (this.depth === 0) role = obj ? Role.Top : Role.Other;
    else if (parent?.role === Role.Top && parent.key === 'documents') {
      role = obj ? Role.Doc : Role.Docs;
      this.single = obj;
    } else if (parent?.role === Role.Docs && obj) {
      role = Role.Doc;
      item = parent.index;
    } else if (parent?.role === Role.Doc && parent.key === 'body' && obj) role = Role.Body;
    this.depth++;
    if (this.depth <= MAX_FRAMES)
      this.frames[this.depth - 1] = { obj, role, expectKey: obj, key: null, index: 0, item };
  }

  private close(): void {
    if (this.depth > 0) this.depth--;
  }

  /** Index just after the closing quote of the string being skipped, or -1 when it goes on. */
  private skipString(chunk: Uint8Array, from: number): number {
    let i = from;
    for (;;) {
      const q = chunk.indexOf(QUOTE, i);
      const stop = q < 0 ? chunk.byteLength : q;
      // Parity of the backslashes just before `stop` (a run reaching `from` continues the carried one).
      let run = 0;
      let k = stop - 1;
      while (k >= i && chunk[k] === BACKSLASH) {
        run++;
        k--;
      }
      const odd = k < i ? ((run & 1) === 1) !== this.escaped : (run & 1) === 1;
      if (q < 0) {
        this.escaped = odd;
        return -1;
      }
      this.escaped = false;
      if (!odd) return q + 1;
      i = q + 1;
    }
  }

  private collectKey(chunk: Uint8Array, from: number, to: number): void {
    for (let i = from; i < to && this.keyPlain; i++) {
      const b = chunk[i];
      if (b === BACKSLASH || this.keyBytes.length >= 16) this.keyPlain = false;
      else this.keyBytes.push(b);
    }
  }

  private endKey(): void {
    const f = this.frame!;
    const key = this.keyPlain ? String.fromCharCode(...this.keyBytes) : null;
    f.key = key !== null && KEYS.has(key) ? key : null;
  }

  /** Consumes bytes of a candidate string from `at`; returns where the JSON continues. */
  private async candidate(chunk: Uint8Array, at: number): Promise<number> {
    if (this.state === 'pending') {
      const end = this.skipString(chunk, at);
      const stop = end < 0 ? chunk.byteLength : end;
      if (end >= 0 && this.pending.length + (stop - at) <= this.spoolAbove + 1) {
        this.out.push(new Uint8Array([QUOTE]));
        this.out.push(this.pending.view());
        this.out.push(chunk.subarray(at, stop));
        this.state = 'json';
        return stop;
      }
      if (this.pending.length + (stop - at) <= this.spoolAbove) {
        this.pending.push(chunk.subarray(at, stop));
        return stop;
      }
      await this.startDiversion();
      const held = this.pending.view();
      this.pending = new Bytes();
      this.escaped = false;
      await this.divert(held, 0);
      return this.inState('divert') ? this.divert(chunk, at) : at;
    }
    return this.divert(chunk, at);
  }

  private async startDiversion(): Promise<void> {
    const d = new Base64Stream(this.pendingItem, this.options.maxBinaryBytes);
    this.diversion = d;
    this.state = 'divert';
    d.writer = await this.options.blobs.create();
    this.out.push(new TextEncoder().encode(`"${d.placeholder}"`));
  }

  /** Decodes string bytes from `at` into the blob; returns the index after the closing quote (or the chunk end). */
  private async divert(chunk: Uint8Array, at: number): Promise<number> {
    const d = this.diversion!;
    let i = at;
    const n = chunk.byteLength;
    let quote = -1;
    let slash = -1;
    while (i < n) {
      if (d.escape !== '') {
        d.escape += String.fromCharCode(chunk[i++]);
        const complete = d.escape.length === 2 ? d.escape[1] !== 'u' : d.escape.length === 6;
        if (complete) {
          await this.store(d.feed(unescape(d.escape)), 0);
          d.escape = '';
        }
        continue;
      }
      // Next quote and backslash, searched again only once passed (n: none in this chunk).
      if (quote < i) quote = indexOrEnd(chunk, QUOTE, i);
      if (slash < i) slash = indexOrEnd(chunk, BACKSLASH, i);
      const stop = Math.min(quote, slash);
      if (stop > i) {
        const segment = chunk.subarray(i, stop);
        const wasStoring = d.storing;
        await this.store(
          d.feed(Buffer.from(segment.buffer, segment.byteOffset, segment.byteLength).toString('latin1')),
          segment.byteLength,
        );
        if (!d.valid) d.chars += utf16Length(segment) - segment.byteLength; // non-ASCII counts per character
        if (wasStoring && !d.storing) await this.stopStoring();
      }
      if (stop === n) return n;
      if (chunk[stop] === BACKSLASH) {
        d.escape = '\\';
        i = stop + 1;
        continue;
      }
      await this.finishDiversion();
      this.state = 'json';
      return stop + 1;
    }
    return n;
  }

  private async store(bytes: Buffer | null, rawBytes: number): Promise<void> {
    const d = this.diversion!;
    if (bytes && d.writer) await d.writer.write(bytes);
    if (rawBytes > 0) this.options.onSpooled?.(rawBytes);
  }

  /** The string can no longer be stored (invalid or too large): its blob goes; single form fails now. */
  private async stopStoring(): Promise<void> {
    const d = this.diversion!;
    await d.writer?.abort();
    d.writer = null;
    if (d.tooLarge && this.single) {
      throw new RequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'documents', 'body', 'binary_base64'],
          msg: `Value error, ${tooLargeMessage(d.maxBinaryBytes)}`,
          input: `<string of more than ${d.maxChars} characters, not read>`,
          ctx: { limit: d.maxBinaryBytes },
        },
      ]);
    }
  }

  private async finishDiversion(): Promise<void> {
    const d = this.diversion!;
    this.diversion = null;
    const wasStoring = d.storing;
    const last = d.end();
    if (last && d.writer) await d.writer.write(last);
    if (wasStoring && !d.storing) await this.stopStoring();
    let blob: BlobRef | null = null;
    if (d.writer) blob = await d.writer.finish();
    this.spooled.push(
      new SpooledBinary({
        placeholder: d.placeholder,
        item: d.item,
        chars: d.chars,
        valid: d.valid,
        tooLarge: d.tooLarge,
        blob,
        store: this.options.blobs,
      }),
    );
  }
}
