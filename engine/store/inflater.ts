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
 */
import * as zlib from 'node:zlib';

/** Output buffer bytes at first; grown (up to MAX_OUT) when a block did not fit. */
const INITIAL_OUT = 64 * 1024;
/** Largest reused output buffer; bigger blocks always go through inflateRawSync. */
const MAX_OUT = 4 * 1024 * 1024;

interface Context {
  stream: zlib.InflateRaw;
  handle: { writeSync(flush: number, src: Uint8Array, srcOff: number, srcLen: number, out: Uint8Array, outOff: number, outLen: number): void; reset(): void };
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
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !state || state.length < 2) {
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
