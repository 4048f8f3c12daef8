/**
 * Block compressor for the stored-field store: raw DEFLATE (level 1) run on one shared worker
 * thread, so compression overlaps with analysis on the indexing thread (a zlib call per block on
 * the main thread costs about as much as the compression itself: context setup and stream plumbing).
 * The worker is created on first use and holds the event loop open only while jobs are pending.
 * When the worker falls behind (MAX_IN_FLIGHT queued blocks) or is unavailable, blocks are
 * compressed synchronously on the calling thread instead. Blocks travel in batches (BATCH_BLOCKS,
 * or whatever is queued when the event loop next turns): each message wakes the worker, which
 * costs the poster far more than the copy-free transfer itself.
 */
import { Worker } from 'node:worker_threads';
import { deflateRawSync } from 'node:zlib';

export const DEFLATE_LEVEL = 1;

// The worker hands every buffer back (input and output are transferred), so their memory is
// reclaimed by the indexing thread's frequent GCs instead of piling up in the idle worker heap.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', (batch) => {
  const results = [];
  const transfer = [];
  for (const m of batch) {
    try {
      const out = deflateRawSync(m.data, { level: ${DEFLATE_LEVEL} });
      const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength;
      const result = own ? new Uint8Array(out.buffer) : new Uint8Array(out);
      results.push({ id: m.id, out: result, input: m.data });
      transfer.push(result.buffer, m.data.buffer);
    } catch (err) {
      results.push({ id: m.id, error: String(err && err.message || err) });
    }
  }
  parentPort.postMessage(results, transfer);
});
`;

interface Job {
  resolve: (out: Uint8Array) => void;
  reject: (err: Error) => void;
}


/** Beyond this many queued blocks (about 8 KB each) the caller compresses inline (bounds memory, shares the CPU). */
const MAX_IN_FLIGHT = 4096;
/** Blocks per message to the worker (about 128 KB). */
const BATCH_BLOCKS = 16;

let worker: Worker | null = null;
let broken = false;
let nextId = 0;
const jobs = new Map<number, Job>();
/** Blocks not yet posted, and whether a post is scheduled for the next turn of the event loop. */
let queued: { id: number; data: Uint8Array }[] = [];
let postScheduled = false;

/**
 * Compress on the calling thread from now on: for worker threads that are the parallelism
 * themselves (the merge thread), where another hop would only add copies.
 */
export function useInlineCompression(): void {
  broken = true;
}

function getWorker(): Worker | null {
  if (broken) return null;
  if (worker) return worker;
  try {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.on('message', (results: { id: number; out?: Uint8Array; error?: string }[]) => {
      for (const m of results) {
        const job = jobs.get(m.id);
        if (!job) continue;
        jobs.delete(m.id);
        if (m.out) job.resolve(m.out);
        else job.reject(new Error(m.error ?? 'compression failed'));
      }
      if (jobs.size === 0) w.unref();
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', () => {
      worker = null;
      failAll(new Error('compression worker exited'));
    });
    w.unref();
    worker = w;
    return w;
  } catch {
    broken = true;
    return null;
  }
}

function failAll(err: Error): void {
  queued = [];
  for (const [id, job] of jobs) {
    jobs.delete(id);
    job.reject(err);
  }
}

/**
 * Compresses `data`. When it goes to the worker, `data`'s buffer is transferred (detached from
 * the caller) so a queued block costs its size once; callers pass a buffer they own exclusively.
 * A worker failure (crash, out of memory) rejects the pending blocks: the flush, and so the
 * commit, fails with an error instead of storing anything wrong.
 */
export function compressBlock(data: Uint8Array): Promise<Uint8Array> {
  const w = jobs.size < MAX_IN_FLIGHT ? getWorker() : null;
  if (!w) return Promise.resolve(new Uint8Array(deflateRawSync(data, { level: DEFLATE_LEVEL })));
  const owned = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
  const id = nextId++;
  const result = new Promise<Uint8Array>((resolve, reject) => jobs.set(id, { resolve, reject }));
  if (jobs.size === 1) w.ref();
  queued.push({ id, data: owned });
  if (queued.length >= BATCH_BLOCKS) postQueued();
  else if (!postScheduled) {
    postScheduled = true;
    setImmediate(postQueued);
  }
  return result;
}

/** Posts the queued blocks as one message (inline compression if the worker refuses it). */
function postQueued(): void {
  postScheduled = false;
  const batch = queued;
  if (batch.length === 0) return;
  queued = [];
  const w = getWorker();
  try {
    if (!w) throw new Error('no worker');
    w.postMessage(batch, batch.map((b) => b.data.buffer as ArrayBuffer));
  } catch {
    for (const { id, data } of batch) {
      const job = jobs.get(id);
      if (!job) continue;
      jobs.delete(id);
      // the buffer is intact: a failed post transfers nothing
      job.resolve(new Uint8Array(deflateRawSync(data, { level: DEFLATE_LEVEL })));
    }
    if (jobs.size === 0) w?.unref();
  }
}
