/**
 * Reads a push body (`{"documents": doc | [doc, ...]}`) from a byte stream
 * without holding its large binaries: every `documents[i].body.binary_base64`
 * string longer than `spoolAboveBytes` is validated and decoded while it
 * arrives, into a blob file (blobs.ts), and replaced in the JSON text by a
 * placeholder. The rest of the body is kept and parsed with JSON.parse; the
 * placeholders stand for their strings in validation (spooled.ts: same checks,
 * same error messages).
 *
 * A string that turns out not to be standard Base64, or whose decoded size
 * passes `maxBinaryBytes`, is not stored (its SpooledBinary says why). In the
 * single form the push fails with it, so a binary over the limit is refused
 * as soon as that is known (422, the rest of the body unread); in the bulk
 * form only that item fails and the rest of its string is skipped unread.
 * Only strings at that exact place are diverted (a key written with escapes is
 * left alone; JSON.parse reads it as usual), so the parsed value is the one
 * JSON.parse would give, with each long binary standing in its place.
 */
import { randomBytes } from 'node:crypto';
import { RequestValidationError } from '../errors.ts';
import { parseJsonBody } from '../http/json.ts';
import type { BlobRef, BlobStore, BlobWriter } from './blobs.ts';
import { SpooledBinary, tooLargeMessage } from './spooled.ts';

export interface PushBodyOptions {
  blobs: BlobStore;
  maxBinaryBytes: number;
  /** Binaries whose JSON string is longer than this many bytes are stored in blobs (default 1 MiB). */
  spoolAboveBytes?: number;
  /** Called with the bytes of the body that went to a blob instead of memory. */
  onSpooled?: (bytes: number) => void;
  /** The body's announced length, if any (the kept text never outgrows it). */
  sizeHint?: number;
}

export interface PushBody {
  value: unknown;
  /** The JSON text as kept (binaries replaced by placeholders), for the queue's raw items. */
  bytes: Uint8Array;
  /** Every binary that was diverted; the caller removes the blobs its documents do not keep. */
  spooled: SpooledBinary[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Binaries whose JSON string is longer than this are stored in blob files (and bodies up to it are read whole). */
export const SPOOL_ABOVE_BYTES = 1024 * 1024;

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
const B64_SEGMENT = /^[A-Za-z0-9+/]*(=*)$/;

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

/** One `binary_base64` string being decoded into a blob. */
class Diversion {
  /** 32 characters of valid Base64 (see spooled.ts). */
  readonly placeholder = randomBytes(24).toString('base64');
  /** UTF-16 length of the JSON string's value. */
  chars = 0;
  pad = 0;
  valid = true;
  tooLarge = false;
  carry = '';
  escape = '';
  writer: BlobWriter | null = null;
  readonly maxChars: number;

  constructor(
    readonly item: number,
    readonly maxBinaryBytes: number,
  ) {
    this.maxChars = 4 * Math.ceil(maxBinaryBytes / 3);
  }

  get storing(): boolean {
    return this.valid && !this.tooLarge;
  }

  /** Feeds characters of the string's value (escapes already decoded); returns decoded bytes to store. */
  feed(s: string): Buffer | null {
    if (!this.storing) {
      this.chars += s.length;
      return null;
    }
    this.chars += s.length;
    const m = B64_SEGMENT.exec(s);
    if (!m || (this.pad > 0 && m[1].length !== s.length)) {
      this.valid = false;
      return null;
    }
    this.pad += m[1].length;
    if (this.pad > 2) {
      this.valid = false;
      return null;
    }
    if (this.chars > this.maxChars) {
      this.tooLarge = true;
      return null;
    }
    const data = this.carry + (m[1].length > 0 ? s.slice(0, s.length - m[1].length) : s);
    const whole = data.length - (data.length % 4);
    this.carry = data.slice(whole);
    return whole > 0 ? Buffer.from(data.slice(0, whole), 'base64') : null;
  }

  /** The last bytes, once the string ended; sets the final verdict. */
  end(): Buffer | null {
    if (!this.storing) return null;
    if (this.chars % 4 !== 0) {
      this.valid = false;
      return null;
    }
    const decoded = (this.chars / 4) * 3 - this.pad;
    if (decoded > this.maxBinaryBytes) {
      this.tooLarge = true;
      return null;
    }
    return this.carry.length > 0 ? Buffer.from(this.carry + '='.repeat(this.pad), 'base64') : null;
  }
}

/** Decodes a complete JSON string escape (`\x` or `\uXXXX`) to its character. */
function unescape(esc: string): string {
  switch (esc[1]) {
    case 'u':
      return String.fromCharCode(Number.parseInt(esc.slice(2), 16));
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    default:
      return esc[1];
  }
}

/** Index of `byte` in `chunk` from `from`, or the chunk's length. */
function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const k = chunk.indexOf(byte, from);
  return k < 0 ? chunk.byteLength : k;
}

/** UTF-16 length of UTF-8 bytes. */
function utf16Length(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  return n;
}

class Scanner {
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
  private diversion: Diversion | null = null;
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
    const d = new Diversion(this.pendingItem, this.options.maxBinaryBytes);
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

/** Puts each binary's stand-in where its placeholder is in the parsed value (spooled.ts). */
function place(value: unknown, spooled: readonly SpooledBinary[]): void {
  const docs = (value as { documents?: unknown } | null)?.documents;
  for (const s of spooled) {
    const doc = s.item < 0 ? docs : Array.isArray(docs) ? docs[s.item] : undefined;
    const body = (doc as { body?: Record<string, unknown> } | null)?.body;
    if (body && typeof body === 'object' && body.binary_base64 === s.placeholder) body.binary_base64 = s.standIn;
  }
}

/**
 * Reads and parses a push body from `chunks` (see the module header). On any failure the blobs
 * written so far are removed; on success the caller owns them (`SpooledBinary.discard`).
 */
export async function readPushBody(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: PushBodyOptions,
): Promise<PushBody> {
  const scanner = new Scanner(options);
  try {
    for await (const chunk of chunks) await scanner.write(chunk);
    await scanner.end();
    if (scanner.spooled.some((s) => s.blob !== null)) await options.blobs.syncDir();
    const bytes = scanner.out.view();
    const value = parseJsonBody(new TextDecoder().decode(bytes), (pos) =>
      originalPosition(pos, bytes, scanner.spooled),
    );
    place(value, scanner.spooled);
    return { value, bytes, spooled: scanner.spooled };
  } catch (err) {
    await scanner.discard();
    throw err;
  }
}

/** Maps a character position in the kept text to the one in the body as sent (placeholders back to their strings). */
function originalPosition(pos: number, kept: Uint8Array, spooled: readonly SpooledBinary[]): number {
  if (spooled.length === 0) return pos;
  const text = new TextDecoder().decode(kept);
  let shift = 0;
  for (const s of spooled) {
    const at = text.indexOf(`"${s.placeholder}"`);
    if (at < 0 || at >= pos) continue;
    shift += s.chars - s.placeholder.length;
  }
  return pos + shift;
}
