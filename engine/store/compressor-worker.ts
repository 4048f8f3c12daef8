/**
 * The compressor's worker thread (compressor.ts): its source, run with `eval` so the thread
 * needs no module loader, and the layout of the control words it shares with the caller.
 *
 * The worker loops forever: it sleeps in Atomics.wait while the input ring is empty, compresses
 * each input record (raw DEFLATE, the level given in workerData) into the output ring, waiting
 * while the output ring is full, publishes the ring positions, and posts a message only when the
 * caller asked for one (WANT_WAKE), once the queued input is done. Records are 4-byte aligned:
 * int32 length, then the bytes; -1 = skip to the ring's start; -2 (output only) = the block failed.
 */

// Control words (Int32Array over a SharedArrayBuffer). Positions are byte counts modulo 2^32;
// a ring offset is position & MASK, the fill is (head - tail) | 0.
export const IN_HEAD = 0; // written by the caller
export const IN_TAIL = 1; // written by the worker
export const OUT_HEAD = 2; // written by the worker
export const OUT_TAIL = 3; // written by the caller
export const WORKER_IDLE = 4; // 1 while the worker waits for input
export const WANT_WAKE = 5; // 1 when the caller wants a message once the queued input is done
export const OUT_WAIT = 6; // 1 while the worker waits for output space
export const CONTROL_INTS = 8;

// The worker compresses with one long-lived zlib handle, reset per block, writing straight into
// the output ring: no allocation per block (a per-block deflateRawSync leaves a 16 KB output
// buffer and a zlib context per block to the worker's rarely running GC, tens of MB of RSS).
// The handle is a Node internal (zlib engine `_handle.writeSync` / `_writeState`, stable since
// Node 10); without it, or on any error from it, the worker uses deflateRawSync. Both give a
// complete raw DEFLATE stream per block at the given level (deflateReset between blocks, as Java's
// Deflater.reset); the bytes can differ slightly from a fresh context's, as zlib's match search
// may look at stale window bytes past the input (match choice only, never the decoded data).
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const { control, input, output, level, ringBytes } = workerData;
const ctl = new Int32Array(control);
const in8 = new Uint8Array(input);
const in32 = new Int32Array(input);
const out8 = new Uint8Array(output);
const out32 = new Int32Array(output);
const mask = ringBytes - 1;
let inTail = Atomics.load(ctl, ${IN_TAIL});
let outHead = Atomics.load(ctl, ${OUT_HEAD});
let engine = null;
try {
  const e = zlib.createDeflateRaw({ level });
  if (typeof e._handle?.writeSync === 'function' && typeof e._handle.reset === 'function' && e._writeState?.length >= 2) engine = e;
} catch {}
/** Reserves room for a record of up to maxLen bytes; returns its offset (waits while the ring is full). */
function reserve(maxLen) {
  const need = 4 + ((maxLen + 3) & ~3);
  for (;;) {
    const off = outHead & mask;
    const skip = off + need > ringBytes ? ringBytes - off : 0;
    const tail = Atomics.load(ctl, ${OUT_TAIL});
    if (ringBytes - ((outHead - tail) | 0) >= skip + need) {
      if (skip > 0) { out32[off >> 2] = -1; outHead = (outHead + skip) | 0; }
      return outHead & mask;
    }
    Atomics.store(ctl, ${OUT_WAIT}, 1);
    if (Atomics.load(ctl, ${OUT_TAIL}) === tail) Atomics.wait(ctl, ${OUT_TAIL}, tail, 100);
    Atomics.store(ctl, ${OUT_WAIT}, 0);
  }
}
function commit(o, len) {
  out32[o >> 2] = len;
  outHead = (outHead + 4 + ((Math.max(len, 0) + 3) & ~3)) | 0;
}
/** Compresses in8[off, off + len) with the reused handle into the ring; false when it did not fit. */
function viaHandle(off, len) {
  const bound = len + (len >> 3) + 64;
  const o = reserve(bound);
  const h = engine._handle;
  h.writeSync(zlib.constants.Z_FINISH, in8, off, len, out8, o + 4, bound);
  const st = engine._writeState;
  const availOut = st[0];
  const availIn = st[1];
  h.reset();
  if (availIn !== 0 || availOut === 0) return false;
  commit(o, bound - availOut);
  return true;
}
function viaSync(off, len) {
  let out = null;
  try { out = zlib.deflateRawSync(in8.subarray(off, off + len), { level }); } catch { out = null; }
  if (out === null) { commit(reserve(0), -2); return; }
  const o = reserve(out.length);
  out8.set(out, o + 4);
  commit(o, out.length);
}
for (;;) {
  let head = Atomics.load(ctl, ${IN_HEAD});
  if (head === inTail) {
    Atomics.store(ctl, ${WORKER_IDLE}, 1);
    head = Atomics.load(ctl, ${IN_HEAD});
    if (head === inTail) Atomics.wait(ctl, ${IN_HEAD}, head, 1000);
    Atomics.store(ctl, ${WORKER_IDLE}, 0);
    continue;
  }
  const off = inTail & mask;
  const len = in32[off >> 2];
  if (len === -1) { inTail = (inTail + ringBytes - off) | 0; Atomics.store(ctl, ${IN_TAIL}, inTail); continue; }
  let done = false;
  if (engine !== null) {
    try { done = viaHandle(off + 4, len); } catch { engine = null; }
  }
  if (!done) viaSync(off + 4, len);
  inTail = (inTail + 4 + ((len + 3) & ~3)) | 0;
  Atomics.store(ctl, ${IN_TAIL}, inTail);
  Atomics.store(ctl, ${OUT_HEAD}, outHead);
  // one message when the queued input is done (or the output ring is half full), not per block
  if (Atomics.load(ctl, ${WANT_WAKE}) === 1 && (Atomics.load(ctl, ${IN_HEAD}) === inTail || ((outHead - Atomics.load(ctl, ${OUT_TAIL})) | 0) >= ringBytes >> 1)) {
    if (Atomics.exchange(ctl, ${WANT_WAKE}, 0) === 1) parentPort.postMessage(0);
  }
}
`;
