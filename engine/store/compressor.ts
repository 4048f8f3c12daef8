/**
 * Block compressor for the stored-field store: raw DEFLATE (level 1) run on one shared worker
 * thread, so compression overlaps with analysis on the indexing thread.
 *
 * Blocks travel through two fixed shared-memory rings (SharedArrayBuffer), not messages: the
 * caller copies a block into the input ring and bumps a counter; the worker (blocked in
 * Atomics.wait while idle) compresses it and writes the result into the output ring; the caller
 * collects finished results synchronously on its next compressBlock call or, when it stops
 * submitting, on the next turn of its event loop (the worker posts a wake-up message only when
 * asked to). So a long synchronous indexing loop neither posts a message per batch nor lets
 * results pile up unread, no per-block buffer crosses threads (the worker's allocations stay on
 * its own heap), and memory in flight is bounded by the rings (RING_BYTES each).
 * When the input ring is full (the worker falls behind), a block is too large for the ring, or
 * the worker is unavailable, the block is compressed synchronously on the calling thread instead.
 * Either way a block becomes one complete raw DEFLATE stream at DEFLATE_LEVEL.
 *
 * The worker (its thread, V8 heap, malloc arena and the two rings: about 20 MB of RSS) lives only
 * while there is work: stored writers report when they take their first doc and when they finish
 * (openWriter / closeWriter). When the last open writer finishes with no block in flight, the worker
 * stops at once if it compressed at least BUSY_BYTES since it started (a bulk load just ended: the
 * restart, about 50 ms of CPU, is small next to that work), else after IDLE_MS without a block.
 * Without a worker, the first START_BYTES of input are compressed inline (a small commit does not
 * wait for a worker to boot); the block after them starts a new worker.
 *
 * Ring records (4-byte aligned): int32 length, then the bytes; length -1 = skip to the ring's
 * start; in the output ring, length -2 = the block failed (the caller's promise rejects).
 */
import { Worker } from 'node:worker_threads';
import { deflateRawSync } from 'node:zlib';
import {
  CONTROL_INTS,
  IN_HEAD,
  IN_TAIL,
  OUT_HEAD,
  OUT_TAIL,
  OUT_WAIT,
  WANT_WAKE,
  WORKER_IDLE,
  WORKER_SOURCE,
} from './compressor-worker.ts';

export const DEFLATE_LEVEL = 1;

/** Size of each ring (input and output); blocks above RING_BYTES / 4 are compressed inline. */
export const RING_BYTES = 1 << 21;
const MAX_RING_BLOCK = RING_BYTES >>> 2;
const MASK = RING_BYTES - 1;
/**
 * Queued bytes at which a submitting caller wakes a sleeping worker. Waking per block would cost
 * the caller a context switch per block on a busy machine; a caller that stops submitting wakes
 * the worker on its next event-loop turn.
 */
const WAKE_BYTES = RING_BYTES >>> 1;
/**
 * While no worker runs, the first START_BYTES of input are compressed inline (small commits never
 * wait for a worker to boot, about 70 ms); the next block starts the worker.
 */
export const START_BYTES = 1 << 20;
/** Input bytes after which an idle worker stops as soon as no writer is open. */
export const BUSY_BYTES = 4 << 20;
/** A worker without a block for this long stops (once no writer is open). */
export const IDLE_MS = 10_000;

/**
 * Receives a block's result: its compressed bytes (a view that is valid only during the call: copy
 * it), or the error that failed it, and the tag the block was submitted with.
 */
export type BlockSink = (out: Uint8Array | null, err: Error | undefined, tag: number) => void;

/** A pending block: the sink its result goes to, with the caller's tag. */
interface Job {
  sink: BlockSink;
  tag: number;
}

interface Channel {
  worker: Worker;
  ctl: Int32Array;
  in8: Uint8Array;
  in32: Int32Array;
  out8: Uint8Array;
  out32: Int32Array;
  inHead: number;
  outTail: number;
  /** Submitted, not yet collected, in submission order (from `first`). */
  jobs: Job[];
  first: number;
  /** Input bytes given to compressBlock since this worker started (ring or inline). */
  submitted: number;
  /** Date.now() of the last submission. */
  lastSubmit: number;
}

let channel: Channel | null = null;
let broken = false;
let collectScheduled = false;
/** Stored writers holding docs they have not finished (openWriter / closeWriter). */
let openWriters = 0;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
/** Bytes compressed inline since the worker last stopped (or since the process started). */
let inlineBytes = 0;

/**
 * Compress on the calling thread from now on: for worker threads that are the parallelism
 * themselves (the merge thread), where another hop would only add copies.
 */
export function useInlineCompression(): void {
  broken = true;
}

function pendingCount(c: Channel): number {
  return c.jobs.length - c.first;
}

function getChannel(): Channel | null {
  if (broken) return null;
  if (channel) return channel;
  try {
    const control = new SharedArrayBuffer(CONTROL_INTS * 4);
    const input = new SharedArrayBuffer(RING_BYTES);
    const output = new SharedArrayBuffer(RING_BYTES);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { control, input, output, level: DEFLATE_LEVEL, ringBytes: RING_BYTES },
    });
    const c: Channel = {
      worker,
      ctl: new Int32Array(control),
      in8: new Uint8Array(input),
      in32: new Int32Array(input),
      out8: new Uint8Array(output),
      out32: new Int32Array(output),
      inHead: 0,
      outTail: 0,
      jobs: [],
      first: 0,
      submitted: 0,
      lastSubmit: Date.now(),
    };
    worker.on('message', () => collectIdle(c));
    worker.on('error', (err) => {
      // a crashed worker (e.g. out of memory) is not restarted: later blocks compress inline
      broken = true;
      retire(c, err);
    });
    worker.on('exit', () => retire(c, new Error('compression worker exited')));
    worker.unref();
    channel = c;
    return c;
  } catch {
    broken = true;
    return null;
  }
}

/** Whether the compression worker is running (tests, diagnostics). */
export function compressorWorkerRunning(): boolean {
  return channel !== null;
}

/** A stored writer took its first doc: the worker is kept while any writer is open. */
export function openWriter(): void {
  openWriters++;
}

/**
 * A stored writer finished (all its blocks collected): stops an idle worker (see the header).
 * Resolves once a worker stopped here has exited (its memory is released), else at once.
 * `moreComing`: the caller expects more blocks soon (a segment finished inside a bulk load), so
 * the worker stops only after IDLE_MS without a block.
 */
export function closeWriter(moreComing = false): Promise<void> {
  if (openWriters > 0) openWriters--;
  const c = channel;
  if (!c || openWriters > 0) return Promise.resolve();
  if (c.submitted >= BUSY_BYTES && !moreComing) return stopIfIdle(c) ?? Promise.resolve();
  armIdleTimer(IDLE_MS);
  return Promise.resolve();
}

/** Stops the worker of `c` when nothing is in flight and no writer is open: its exit, or null when kept. */
function stopIfIdle(c: Channel): Promise<void> | null {
  if (channel !== c || openWriters > 0) return null;
  collect(c);
  if (pendingCount(c) > 0 || Atomics.load(c.ctl, IN_TAIL) !== c.inHead) return null;
  channel = null;
  inlineBytes = 0;
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  c.worker.removeAllListeners('exit');
  c.worker.removeAllListeners('error');
  c.worker.removeAllListeners('message');
  c.worker.on('error', () => undefined);
  c.worker.unref();
  return c.worker.terminate().then(
    () => undefined,
    () => undefined,
  );
}

function armIdleTimer(ms: number): void {
  if (idleTimer) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    const c = channel;
    if (!c || openWriters > 0) return;
    const quiet = Date.now() - c.lastSubmit;
    if (quiet < IDLE_MS || !stopIfIdle(c)) armIdleTimer(Math.max(IDLE_MS - quiet, 100));
  }, ms);
  idleTimer.unref();
}

/**
 * Hands the results the worker has finished so far to their sinks, without waiting (a caller that
 * wants to know whether its blocks are done before its next submission or event-loop turn).
 */
export function collectBlocks(): void {
  if (channel) collect(channel);
}

/** Drops a dead channel: its pending blocks reject (the flush, and so the commit, fails). */
function retire(c: Channel, err: Error): void {
  if (channel === c) channel = null;
  collect(c); // results the worker finished before it died are still good
  const jobs = c.jobs.slice(c.first);
  c.jobs = [];
  c.first = 0;
  for (const job of jobs) job.sink(null, err, job.tag);
  c.worker.unref();
}

/** Resolves the finished blocks of `c` (synchronously; promise callbacks run later). */
function collect(c: Channel): void {
  const head = Atomics.load(c.ctl, OUT_HEAD);
  let tail = c.outTail;
  if (tail === head) return;
  while (tail !== head) {
    const off = tail & MASK;
    const len = c.out32[off >> 2];
    if (len === -1) {
      tail = (tail + RING_BYTES - off) | 0;
      continue;
    }
    const job = c.jobs[c.first];
    c.jobs[c.first++] = undefined as unknown as Job;
    if (len === -2) job.sink(null, new Error('compression failed'), job.tag);
    else job.sink(c.out8.subarray(off + 4, off + 4 + len), undefined, job.tag);
    tail = (tail + 4 + ((Math.max(len, 0) + 3) & ~3)) | 0;
  }
  c.outTail = tail;
  Atomics.store(c.ctl, OUT_TAIL, tail);
  if (Atomics.load(c.ctl, OUT_WAIT) === 1) Atomics.notify(c.ctl, OUT_TAIL);
  if (c.first === c.jobs.length) {
    c.jobs = [];
    c.first = 0;
  } else if (c.first > 4096) {
    c.jobs = c.jobs.slice(c.first);
    c.first = 0;
  }
}

/**
 * Collects results while the caller is not submitting: when blocks are still pending, asks the
 * worker for a message after its next result (and keeps the event loop alive until then).
 */
function collectIdle(c: Channel): void {
  collectScheduled = false;
  if (channel !== c) return;
  collect(c);
  if (pendingCount(c) === 0) {
    c.worker.unref();
    return;
  }
  c.worker.ref();
  wakeWorker(c);
  Atomics.store(c.ctl, WANT_WAKE, 1);
  collect(c); // a result may have landed before the request was visible to the worker
  if (pendingCount(c) === 0) c.worker.unref();
}

/** Copies `data` into the input ring as one record; false when the ring has no room for it. */
function submit(c: Channel, data: Uint8Array): boolean {
  const len = data.length;
  const need = 4 + ((len + 3) & ~3);
  const off = c.inHead & MASK;
  const skip = off + need > RING_BYTES ? RING_BYTES - off : 0;
  const free = RING_BYTES - ((c.inHead - Atomics.load(c.ctl, IN_TAIL)) | 0);
  if (free < skip + need) {
    wakeWorker(c);
    return false;
  }
  if (skip > 0) {
    c.in32[off >> 2] = -1;
    c.inHead = (c.inHead + skip) | 0;
  }
  const o = c.inHead & MASK;
  c.in32[o >> 2] = len;
  c.in8.set(data, o + 4);
  c.inHead = (c.inHead + need) | 0;
  Atomics.store(c.ctl, IN_HEAD, c.inHead);
  if (((c.inHead - Atomics.load(c.ctl, IN_TAIL)) | 0) >= WAKE_BYTES) wakeWorker(c);
  return true;
}

/** Wakes the worker when it sleeps (a futex wake: it may cost the caller its time slice, so callers batch). */
function wakeWorker(c: Channel): void {
  if (Atomics.load(c.ctl, WORKER_IDLE) === 1) Atomics.notify(c.ctl, IN_HEAD);
}

function compressInline(data: Uint8Array, sink: BlockSink, tag: number): void {
  let out: Uint8Array;
  try {
    out = deflateRawSync(data, { level: DEFLATE_LEVEL });
  } catch (err) {
    sink(null, err as Error, tag);
    return;
  }
  sink(out, undefined, tag);
}

/**
 * Compresses `data` (raw DEFLATE, DEFLATE_LEVEL). The bytes are copied before this returns, so
 * the caller may reuse `data` at once. A worker failure (crash, out of memory) rejects the
 * pending blocks: the flush, and so the commit, fails with an error instead of storing anything wrong.
 */
export function compressBlock(data: Uint8Array): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) =>
    compressBlockTo(data, (out, err) => (out ? resolve(out.slice()) : reject(err))),
  );
}

/**
 * Compresses `data` like compressBlock, handing the result to `sink` with `tag` (so that one sink,
 * made once, serves many blocks): at once when compressed
 * inline, else when collected (on a later compressBlockTo call or an event-loop turn).
 * A writer's blocks reach their sinks in submission order, except that an inline one (ring full,
 * block too large) may overtake blocks still in the ring.
 */
export function compressBlockTo(data: Uint8Array, sink: BlockSink, tag = 0): void {
  if (!channel && inlineBytes < START_BYTES) {
    inlineBytes += data.length;
    compressInline(data, sink, tag);
    return;
  }
  const c = data.length <= MAX_RING_BLOCK ? getChannel() : null;
  if (channel) channel.submitted += data.length;
  if (!c) return compressInline(data, sink, tag);
  collect(c);
  if (!submit(c, data)) return compressInline(data, sink, tag);
  c.lastSubmit = Date.now();
  c.jobs.push({ sink, tag });
  if (!collectScheduled) {
    collectScheduled = true;
    c.worker.ref();
    setImmediate(() => collectIdle(c));
  }
}
