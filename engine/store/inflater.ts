/**
 * Raw-DEFLATE inflation of stored blocks with one reused zlib context.
 *
 * `inflateRawSync` builds a zlib stream per call (a JS stream object, a native
 * context with its 32 KB window, an output buffer); for the ~8 KB blocks a
 * search reads per hit that setup costs about as much as the inflation. This
 * module keeps one context and one output buffer, and resets the context per
 * block (inflateReset, as Java's Inflater.reset).
 *
 * The context is a Node internal (the zlib stream's `_handle.writeSync` and
 * `_writeState`, stable since Node 10; the stored-field compressor's worker uses
 * the same). Without it, for a block whose output does not fit the buffer, and
 * after any zlib error, `inflateRawSync` does the work, so the result is always
 * that of `inflateRawSync`.
 *
 * Contract: `inflateBlock(src)` returns the inflated bytes, valid only until the
 * next call (the shared buffer is reused); copy or decode them first. Throws what
 * `inflateRawSync` throws on bad input.
 *
 * `inflatePrefix(src, want)` inflates only the first bytes of a stream (a reader
 * that needs one document of a block stops after it): a PrefixInflation whose
 * `more(want)` continues up to `want` bytes, `end()` releases the context. Null
 * (and false from `more`) whenever the reused context cannot do it (no context, a
 * zlib error, more than the shared buffer holds): the caller then uses inflateBlock,
 * which reports any error. One at a time; its bytes are valid until the next call.
 */
import * as zlib from 'node:zlib';

/** Output buffer bytes at first; grown (up to MAX_OUT) when a block did not fit. */
const INITIAL_OUT = 64 * 1024;
/** Largest reused output buffer; bigger blocks always go through inflateRawSync. */
const MAX_OUT = 4 * 1024 * 1024;

interface Context {
  stream: zlib.InflateRaw;
  handle: {
    writeSync(
      flush: number,
      src: Uint8Array,
      srcOff: number,
      srcLen: number,
      out: Uint8Array,
      outOff: number,
      outLen: number,
    ): void;
    reset(): void;
  };
  state: Uint32Array;
}

let context: Context | null | undefined;
let out = new Uint8Array(INITIAL_OUT);

function openContext(): Context | null {
  try {
    const stream = zlib.createInflateRaw();
    const internal = stream as unknown as { _handle?: Context['handle']; _writeState?: Uint32Array };
    const handle = internal._handle;
    const state = internal._writeState;
    if (
      !handle ||
      typeof handle.writeSync !== 'function' ||
      typeof handle.reset !== 'function' ||
      !state ||
      state.length < 2
    ) {
      stream.close();
      return null;
    }
    // zlib reports a data error by destroying the stream, which emits 'error' on the next tick.
    stream.on('error', () => {});
    return { stream, handle, state };
  } catch {
    return null;
  }
}

/** The inflated bytes of the raw DEFLATE stream `src` (a view valid until the next call; see the header). */
export function inflateBlock(src: Uint8Array): Uint8Array {
  if (context === undefined) context = openContext();
  const c = context;
  if (c === null) return zlib.inflateRawSync(src);
  c.handle.writeSync(zlib.constants.Z_FINISH, src, 0, src.length, out, 0, out.length);
  if (c.stream.destroyed) {
    // a zlib error closed the context: inflateRawSync reports it; a new context serves the next call
    context = undefined;
    return zlib.inflateRawSync(src);
  }
  const availOut = c.state[0];
  const availIn = c.state[1];
  c.handle.reset();
  if (availOut === 0 || availIn !== 0) {
    // the output did not fit (or the input was not consumed): let inflateRawSync size it
    const bytes = zlib.inflateRawSync(src);
    if (bytes.length > out.length && bytes.length <= MAX_OUT) out = new Uint8Array(Math.min(MAX_OUT, 2 * bytes.length));
    return bytes;
  }
  return out.subarray(0, out.length - availOut);
}

/** A stream being inflated a prefix at a time (see inflatePrefix). */
export interface PrefixInflation {
  /** Inflated bytes so far (a view of the shared buffer). */
  bytes: Uint8Array;
  /** The stream ended (or its input ran out): `bytes` is all there is. */
  ended: boolean;
  /** Inflates on up to `want` bytes in all; false when that cannot be done here. */
  more(want: number): boolean;
  /** Releases the context (always call it, also after false). */
  end(): void;
}

class Prefix implements PrefixInflation {
  bytes = out.subarray(0, 0);
  ended = false;
  private inPos = 0;
  private outPos = 0;
  private live = true;

  constructor(
    private readonly c: Context,
    private readonly src: Uint8Array,
  ) {}

  more(want: number): boolean {
    if (!this.live || want > out.length) return false;
    if (this.ended || want <= this.outPos) return true;
    const room = want - this.outPos;
    this.c.handle.writeSync(
      zlib.constants.Z_SYNC_FLUSH,
      this.src,
      this.inPos,
      this.src.length - this.inPos,
      out,
      this.outPos,
      room,
    );
    if (this.c.stream.destroyed) {
      context = undefined;
      this.live = false;
      return false;
    }
    const availOut = this.c.state[0];
    this.inPos = this.src.length - this.c.state[1];
    this.outPos += room - availOut;
    if (availOut > 0) this.ended = true;
    this.bytes = out.subarray(0, this.outPos);
    return true;
  }

  end(): void {
    if (this.live && context === this.c) this.c.handle.reset();
    this.live = false;
  }
}

/** The first `want` (or all, when fewer) inflated bytes of `src`, continued on demand; null when not possible here. */
export function inflatePrefix(src: Uint8Array, want: number): PrefixInflation | null {
  if (context === undefined) context = openContext();
  if (context === null) return null;
  const p = new Prefix(context, src);
  if (!p.more(want)) {
    p.end();
    return null;
  }
  return p;
}
