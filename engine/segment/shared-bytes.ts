/**
 * Segment file images live in SharedArrayBuffer memory, so that a snapshot can be
 * handed to other threads (engine/shared-snapshot.ts) without copying: a posted
 * SharedArrayBuffer is shared, not cloned. Images are immutable once made, so the
 * sharing needs no synchronisation. Producers (concatChunks, FsDirectory.readFile,
 * MemoryDirectory) allocate shared memory; `toShared` copies anything else once.
 */

export function isShared(bytes: Uint8Array): boolean {
  return bytes.buffer instanceof SharedArrayBuffer;
}

/** A zeroed Uint8Array of `size` bytes over its own SharedArrayBuffer. */
export function sharedBytes(size: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(size));
}

/** `bytes` itself when in shared memory, else a shared copy. */
export function toShared(bytes: Uint8Array): Uint8Array {
  if (isShared(bytes)) return bytes;
  const out = sharedBytes(bytes.length);
  out.set(bytes);
  return out;
}
