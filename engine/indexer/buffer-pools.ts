/**
 * Memory the indexing buffers reuse across flushes (segment-buffer.ts), per thread: the token-log
 * chunks, the flush's sort array, and the largest term state and registry maps of flushed buffers.
 * A bulk load thus reuses the same few tens of MB instead of leaving a new set per buffer to the
 * GC: freed ArrayBuffer memory returns to malloc only at a full GC, and the process heap grows
 * past it meanwhile. releasePooledLogs drops everything (with the flush scratch, util/scratch.ts).
 */
import type { IntList } from '../util/growable.ts';
import { releaseScratch } from '../util/scratch.ts';

/** Ints per buffer term in SegmentBuffer's term state: last doc, freq in it, xxh64 high, low. */
export const TERM_STATE = 4;

/** Ints per token-log chunk (1 MB); a field with more tokens gets one chunk of its own size. */
export const LOG_CHUNK_INTS = 1 << 18;
/** Pooled log chunks kept at most (enough for a buffer of 1 M tokens and some slack). */
const CHUNK_POOL_MAX = 16;
export const EMPTY_LOG = new Int32Array(0);
const chunkPool: Int32Array[] = [];

/**
 * The slab: one allocation holding SLAB_CHUNKS log chunks and the flush's sort array. Its size is
 * above the largest threshold at which glibc's malloc still serves a request from the process heap
 * (32 MiB on 64-bit), so it gets a mapping of its own: the indexing scratch does not grow the heap
 * underneath the segment images allocated meanwhile, and dropping the slab returns it to the OS.
 * Only the touched part is resident.
 */
const SLAB_BYTES = 40 << 20;
const SLAB_CHUNKS = 16;
const SLAB_SORT_OFFSET = SLAB_CHUNKS * LOG_CHUNK_INTS * 4;
let slab: ArrayBuffer | null = null;
const slabChunks: Int32Array[] = [];
let slabSortTaken = false;

function currentSlab(): ArrayBuffer {
  if (slab === null) {
    slab = new ArrayBuffer(SLAB_BYTES);
    for (let i = SLAB_CHUNKS - 1; i >= 0; i--)
      slabChunks.push(new Int32Array(slab, i * LOG_CHUNK_INTS * 4, LOG_CHUNK_INTS));
  }
  return slab;
}

/** A log chunk with room for `need` ints (pooled when it is a standard chunk). */
export function takeChunk(need: number): Int32Array {
  if (need > LOG_CHUNK_INTS) return new Int32Array(need);
  currentSlab();
  return slabChunks.pop() ?? chunkPool.pop() ?? new Int32Array(LOG_CHUNK_INTS);
}

export function giveChunk(c: Int32Array): void {
  if (c.length !== LOG_CHUNK_INTS) return;
  if (slab !== null && c.buffer === slab) slabChunks.push(c);
  else if (c.byteLength === c.buffer.byteLength && chunkPool.length < CHUNK_POOL_MAX) chunkPool.push(c);
}

/** Drops pooled arrays, log chunks and flush scratch (called after a commit: an idle index should not hold flush scratch). */
export function releasePooledLogs(): void {
  slab = null;
  slabChunks.length = 0;
  slabSortTaken = false;
  chunkPool.length = 0;
  spareState = null;
  spareMaps.length = 0;
  releaseScratch();
}

/**
 * The flush's sort array, at least `min` ints: the slab's sort region, or (when that is taken or
 * too small: a buffer far beyond the default limits) an array of its own.
 */
export function takeLog(min: number): Int32Array {
  if (!slabSortTaken && min * 4 <= SLAB_BYTES - SLAB_SORT_OFFSET) {
    slabSortTaken = true;
    return new Int32Array(currentSlab(), SLAB_SORT_OFFSET, min);
  }
  return new Int32Array(min);
}

/** Gives a takeLog array back. */
export function giveLog(a: Int32Array): void {
  if (a.buffer === slab) slabSortTaken = false;
}

/**
 * Arrays of flushed buffers that the next buffers grow into instead of allocating (the largest
 * term state; registry maps, zeroed when taken), so that a bulk load does not leave a doubling
 * series of them per buffer to the GC. Dropped by releasePooledLogs.
 */
let spareState: Int32Array | null = null;
const spareMaps: Int32Array[] = [];
const MAX_SPARE_MAPS = 8;

/** Grows a buffer's term state by at least one term (into the spare one when it is large enough). */
export function growTermState(state: IntList): void {
  const min = Math.max(state.length * 2, 1024) + TERM_STATE;
  if (spareState !== null && spareState.length >= min) {
    spareState.set(state.data.subarray(0, state.length));
    state.data = spareState;
    spareState = null;
    return;
  }
  state.grow(state.length + TERM_STATE);
}

/** A registry id -> buffer term map covering `n` registry ids, holding `old`'s entries (the rest zero). */
export function growRegistryMap(old: Int32Array, n: number): Int32Array {
  let next: Int32Array | null = null;
  for (let i = 0; i < spareMaps.length; i++) {
    if (spareMaps[i].length >= n) {
      next = spareMaps.splice(i, 1)[0];
      next.fill(0);
      break;
    }
  }
  next ??= new Int32Array(Math.max(n + (n >>> 1), 1024));
  next.set(old);
  return next;
}

/** Offers a flushed buffer's arrays for the next buffers to grow into. */
export function spareArrays(termState: Int32Array, maps: Iterable<Int32Array>): void {
  if (spareState === null || termState.length > spareState.length) spareState = termState;
  for (const m of maps) if (m.length > 0) spareMaps.push(m);
  while (spareMaps.length > MAX_SPARE_MAPS) spareMaps.shift();
}
