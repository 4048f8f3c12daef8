/**
 * Flush scratch: the large byte buffers a segment flush fills and then copies into the segment
 * image (postings streams, term dictionaries, stored-block chunks). The indexing writer hands
 * them back here once the image exists (giveScratch), and the next flush takes them again
 * (takeScratch), instead of leaving tens of MB per flush to the garbage collector: the memory
 * of dropped ArrayBuffers returns to malloc only at a full GC, and in the meantime the process
 * heap grows past it (and malloc rarely returns that growth to the system).
 *
 * Contract: a buffer given back must not be referenced by its giver any more; taken buffers are
 * not zeroed. Buffers are per thread (module state). The pool holds at most MAX_POOLED_BYTES and
 * is emptied by releaseScratch (an idle index should not hold flush scratch).
 */

/** Requests are rounded up to this many bytes (so buffers fit later requests of similar size). */
const GRANULE = 256 * 1024;
/** Bytes kept in the pool at most. */
const MAX_POOLED_BYTES = 48 * 1024 * 1024;
/** Below this size, buffers are neither pooled nor rounded. */
const MIN_POOLED = 64 * 1024;

/** Pooled buffers, shortest first. */
const pool: Uint8Array[] = [];
let pooledBytes = 0;

/**
 * A buffer of at least `min` bytes (contents undefined): the shortest pooled one that is not
 * more than twice as large as needed, else a new one rounded up to GRANULE.
 */
export function takeScratch(min: number): Uint8Array {
  if (min < MIN_POOLED) return new Uint8Array(Math.max(16, min));
  for (let i = 0; i < pool.length; i++) {
    const b = pool[i];
    if (b.length < min) continue;
    if (b.length > 2 * min + GRANULE) break;
    pool.splice(i, 1);
    pooledBytes -= b.length;
    return b;
  }
  return new Uint8Array(Math.ceil(min / GRANULE) * GRANULE);
}

/** Returns a buffer (its whole ArrayBuffer) for reuse; small or foreign-shaped buffers are dropped. */
export function giveScratch(b: Uint8Array): void {
  if (b.length < MIN_POOLED || b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) return;
  if (b.buffer instanceof SharedArrayBuffer) return;
  if (pool.includes(b)) return;
  let i = 0;
  while (i < pool.length && pool[i].length < b.length) i++;
  pool.splice(i, 0, b);
  pooledBytes += b.length;
  // over the cap, the largest buffers go first (they are the rarest requests)
  while (pooledBytes > MAX_POOLED_BYTES) pooledBytes -= pool.pop()!.length;
}

/** Drops every pooled buffer. */
export function releaseScratch(): void {
  pool.length = 0;
  pooledBytes = 0;
}

/** Bytes currently pooled (tests, diagnostics). */
export function scratchBytes(): number {
  return pooledBytes;
}
