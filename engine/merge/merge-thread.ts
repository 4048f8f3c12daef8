/**
 * MergeThread: runs segment merges on a worker thread (merge-worker.ts), so the writer's
 * thread keeps serving adds, commits and searches while a merge re-encodes postings and
 * stored fields. The sources travel as copies of their file images (segments are immutable;
 * copying is a memcpy, far cheaper than the merge), the result comes back transferred.
 *
 * Contracts:
 * - `merge()` answers null when no thread can be used (it failed before, or cannot start, e.g.
 *   a runtime without the worker's source); the caller then merges on its own thread. A thread
 *   that fails mid-merge rejects that merge and is not used again.
 * - The worker holds the process open only while a merge is pending, and exits after IDLE_MS
 *   without one (its heap held copies of the sources; the next merge starts a new worker).
 * - `close()` terminates the worker; a pending merge rejects with CLOSED.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/worker-start.ts';
import { EngineError } from '../errors.ts';
import type { MergeOptions, MergeSource } from './merger.ts';

export interface MergeRequest {
  job: number;
  id: string;
  sources: { id: string; bytes: Uint8Array; bits: Uint8Array }[];
  /** mergeSegments options (display fields). */
  options?: MergeOptions;
}

export interface MergeReply {
  job: number;
  bytes?: Uint8Array;
  docMaps?: Int32Array[];
  error?: string;
}

/** A worker without a merge for this long is stopped. */
const IDLE_MS = 10_000;

/** Name of the asset holding the bundled merge-worker.ts (CommonJS) inside the single executable. */
export const SEA_MERGE_WORKER_ASSET = 'merge-worker.cjs';

interface Job {
  resolve: (r: { bytes: Uint8Array; docMaps: Int32Array[] }) => void;
  reject: (err: Error) => void;
}

export class MergeThread {
  private worker: Worker | null = null;
  private broken = false;
  private closed = false;
  private nextJob = 1;
  private readonly jobs = new Map<number, Job>();
  private idle: ReturnType<typeof setTimeout> | null = null;

  /**
   * `idleMs`: how long a worker without a merge lives on (default IDLE_MS). `onIdleExit` is
   * called once a worker stopped for idleness has exited.
   */
  constructor(
    private readonly idleMs = IDLE_MS,
    private readonly onIdleExit?: () => void,
  ) {}

  /** Merges `sources` into segment `id` on the thread; null when the thread is unavailable. */
  merge(
    id: string,
    sources: readonly MergeSource[],
    options: MergeOptions = {},
  ): Promise<{ bytes: Uint8Array; docMaps: Int32Array[] }> | null {
    const w = this.start();
    if (!w) return null;
    if (this.idle) {
      clearTimeout(this.idle);
      this.idle = null;
    }
    const job = this.nextJob++;
    const req: MergeRequest = {
      job,
      id,
      sources: sources.map((s) => ({ id: s.core.id, bytes: s.core.bytes, bits: s.bits })),
      options: { displayFields: options.displayFields ? [...options.displayFields] : undefined },
    };
    const done = new Promise<{ bytes: Uint8Array; docMaps: Int32Array[] }>((resolve, reject) =>
      this.jobs.set(job, { resolve, reject }),
    );
    try {
      w.postMessage(req);
    } catch {
      this.jobs.delete(job);
      this.fail(new Error('merge thread rejected the request'));
      return null;
    }
    w.ref();
    return done;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    const w = this.worker;
    this.worker = null;
    this.rejectAll(new EngineError('CLOSED', 'merge aborted'));
    if (w) await w.terminate().catch(() => undefined);
  }

  private start(): Worker | null {
    if (this.worker || this.broken || this.closed) return this.worker;
    let w: Worker;
    try {
      w = startModuleWorker(new URL('./merge-worker.ts', import.meta.url), SEA_MERGE_WORKER_ASSET);
    } catch {
      this.broken = true;
      return null;
    }
    w.on('message', (m: MergeReply) => {
      const job = this.jobs.get(m.job);
      if (!job) return;
      this.jobs.delete(m.job);
      if (this.jobs.size === 0) {
        w.unref();
        this.scheduleIdleStop(w);
      }
      if (m.bytes && m.docMaps) job.resolve({ bytes: m.bytes, docMaps: m.docMaps });
      else job.reject(new EngineError('IO', `merge failed: ${m.error ?? 'no result'}`));
    });
    w.on('error', (err) => this.fail(err));
    w.on('exit', () => this.fail(new Error('merge thread exited')));
    w.unref();
    this.worker = w;
    return w;
  }

  /** Stops worker `w` once it has been idle for IDLE_MS (not a failure: a later merge starts another). */
  private scheduleIdleStop(w: Worker): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.worker !== w || this.jobs.size > 0) return;
      this.worker = null;
      w.removeAllListeners('exit');
      w.removeAllListeners('error');
      w.on('error', () => undefined);
      void w
        .terminate()
        .catch(() => undefined)
        .then(() => this.onIdleExit?.());
    }, this.idleMs);
    this.idle.unref();
  }

  private fail(err: Error): void {
    if (this.closed) return;
    this.broken = true;
    const w = this.worker;
    this.worker = null;
    this.rejectAll(new EngineError('IO', `merge thread failed: ${err.message}`));
    if (w) void w.terminate().catch(() => undefined);
  }

  private rejectAll(err: Error): void {
    for (const job of this.jobs.values()) job.reject(err);
    this.jobs.clear();
  }
}
