/**
 * Segment file images live in SharedArrayBuffer memory, so that a snapshot can be
 * handed to other threads (engine/reader/shared-snapshot.ts) without copying: a posted
 * SharedArrayBuffer is shared, not cloned. Images are immutable once made, so the
 * sharing needs no synchronisation. Producers (concatChunks, FsDirectory.readFile,
 * MemoryDirectory) allocate shared memory; `toShared` copies anything else once.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';

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

/**
 * V8 does not count SharedArrayBuffer memory towards its garbage-collection triggers, so
 * images that became garbage (segments merged away, a snapshot replaced) would stay allocated
 * until a full GC happens for other reasons, and an idle server (idle compaction drops a whole
 * index's old segments) may not run one for a long time. Whoever drops images reports their
 * size here; once RELEASE_BYTES are pending, a check runs every RELEASE_DELAY_MS (an unref'd
 * timer: it never keeps a process alive) and runs one full GC as soon as this thread's event
 * loop was mostly idle since the last check. A busy thread allocates and collects anyway, and
 * a forced pause would only slow it down (bulk pushes merge all the time).
 */
const RELEASE_BYTES = 64 * 1024 * 1024;
const RELEASE_DELAY_MS = 2000;
/** Event-loop utilisation below which a thread counts as idle. */
const IDLE_UTILIZATION = 0.3;
let pendingBytes = 0;
let releaseTimer: ReturnType<typeof setTimeout> | null = null;

/** Notes `bytes` of shared images that are no longer referenced (see above). */
export function droppedShared(bytes: number): void {
  pendingBytes += bytes;
  if (pendingBytes >= RELEASE_BYTES && releaseTimer === null) armRelease(performance.eventLoopUtilization());
}

function armRelease(since: EventLoopUtilization): void {
  releaseTimer = setTimeout(() => {
    releaseTimer = null;
    if (performance.eventLoopUtilization(since).utilization < IDLE_UTILIZATION) releaseSharedMemory();
    else armRelease(performance.eventLoopUtilization());
  }, RELEASE_DELAY_MS);
  releaseTimer.unref?.();
}

/** Runs the full GC that returns dropped shared images now (also used by tests). */
export function releaseSharedMemory(): void {
  if (releaseTimer !== null) clearTimeout(releaseTimer);
  releaseTimer = null;
  pendingBytes = 0;
  collector()?.();
}

/**
 * V8's `gc`. V8 flags are process-wide and may be changed only while no other thread runs
 * JavaScript, so the main thread sets `--expose-gc` once, when this module loads (before the
 * engine starts any worker); contexts made afterwards, in any thread, carry `gc`. A thread
 * started before that finds none and skips the release.
 */
if (isMainThread) {
  try {
    setFlagsFromString('--expose-gc');
  } catch {
    // no collector: dropped images wait for an ordinary GC
  }
}
let gcFunction: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (gcFunction !== undefined) return gcFunction;
  try {
    const fn: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    gcFunction = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    gcFunction = null;
  }
  return gcFunction;
}
