/**
 * Worker-thread pool for extraction. Each job runs in a worker so a hostile document cannot
 * stall the caller's event loop (job kinds: registry extraction, web-page main content; see jobs.ts): the wall-time limit is enforced by terminating the worker
 * (TIMEOUT) and starting a replacement; a worker out of memory under resourceLimits fails its
 * job with TOO_LARGE, any other crash with CORRUPT, and is replaced too. Decompression is
 * bounded per worker as well as per document: the pool's inflation budget is split evenly
 * between the workers, so all of them together never hold more than the budget. The queue is bounded:
 * beyond `maxQueue` waiting jobs, extract() rejects with OVERLOADED. Interactive jobs (a caller
 * waits on them) wait ahead of the others (PoolJob.interactive). Idle workers are unref'd
 * so an idle pool never keeps the process alive.
 * Inside the single executable (src/build/binary.ts) the default worker is the bundled worker
 * script carried as the SEA asset `SEA_WORKER_ASSET`, started with `eval: true`.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ExtractionError } from './errors.ts';
import type { ExtractionErrorCode } from './errors.ts';
import type { JobInput, JobKind, JobResults, WorkerRequest } from './jobs.ts';

export interface PoolOptions {
  /** Number of workers; default os.availableParallelism() (2 when unknown). */
  size?: number;
  /** Maximum jobs waiting for a worker; default 256. */
  maxQueue?: number;
  /** V8 old-generation heap cap per worker in MB (resourceLimits); default 1024. */
  maxHeapMb?: number;
  /**
   * Bytes all workers together may decompress for the documents they run at once; each worker
   * gets an even share, which caps `maxDecompressedBytes` of every job it runs. Default 512 MiB.
   */
  inflateBudgetBytes?: number;
  /** Worker module speaking the worker.ts protocol; default ./worker.ts (tests substitute their own). */
  workerUrl?: URL;
}

/** A job as callers submit it: the worker's input (jobs.ts) plus how the pool treats it. */
export interface PoolJob extends JobInput {
  signal?: AbortSignal;
  /**
   * A caller is waiting on it (a web-search page, a chat upload): it is queued ahead of every
   * waiting job that is not interactive (document indexing), behind the interactive ones.
   */
  interactive?: boolean;
}

interface Pending {
  id: number;
  job: PoolJob;
  resolve: (result: JobResults[JobKind]) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  current: Pending | null;
  timer: ReturnType<typeof setTimeout> | null;
  onAbort: (() => void) | null;
}

const WORKER_URL = new URL('./worker.ts', import.meta.url);

/**
 * Workers are started from a data: URL bootstrap that registers tsx inside the worker and
 * then imports the TypeScript worker module (`execArgv: ['--import', 'tsx']` does not apply
 * loader hooks to a worker's .ts entry on Node 20).
 */
function bootstrapUrl(workerUrl: URL): URL {
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(workerUrl.href)});`;
  return new URL('data:text/javascript,' + encodeURIComponent(code));
}

/** Name of the asset holding the bundled worker.ts (CommonJS) inside the single executable. */
export const SEA_WORKER_ASSET = 'extract-worker.cjs';

let seaWorker: string | null | undefined;

/** The bundled worker source when running as a single executable, else null (node:sea needs Node >= 20.12). */
function seaWorkerSource(): string | null {
  if (seaWorker !== undefined) return seaWorker;
  let sea: typeof import('node:sea') | undefined;
  try {
    sea = createRequire(import.meta.url)('node:sea') as typeof import('node:sea');
  } catch {
    sea = undefined;
  }
  seaWorker = sea?.isSea() ? sea.getAsset(SEA_WORKER_ASSET, 'utf8') : null;
  return seaWorker;
}

export class ExtractionPool {
  readonly size: number;
  private readonly maxQueue: number;
  private readonly maxHeapMb: number;
  /** Decompressed bytes one worker may hold for its job (the pool's inflation budget / size). */
  readonly inflateShare: number;
  private readonly workerUrl: URL;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** Number of workers replaced after a timeout, abort or crash (for monitoring and tests). */
  replacements = 0;

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? (availableParallelism?.() || 2));
    this.maxQueue = options.maxQueue ?? 256;
    this.maxHeapMb = options.maxHeapMb ?? 1024;
    this.inflateShare = Math.floor((options.inflateBudgetBytes ?? 512 * 1024 * 1024) / this.size);
    this.workerUrl = options.workerUrl ?? WORKER_URL;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const options = { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb } };
    const bundled = this.workerUrl === WORKER_URL ? seaWorkerSource() : null;
    const worker =
      bundled !== null
        ? new Worker(bundled, { ...options, eval: true })
        : new Worker(bootstrapUrl(this.workerUrl), options);
    const slot: Slot = { worker, current: null, timer: null, onAbort: null };
    worker.on(
      'message',
      (msg: {
        id: number;
        ok: boolean;
        result?: JobResults[JobKind];
        error?: { code: ExtractionErrorCode; message: string };
      }) => {
        const job = slot.current;
        if (!job || job.id !== msg.id) return;
        this.release(slot);
        if (msg.ok) job.resolve(msg.result!);
        else job.reject(new ExtractionError(msg.error!.code, msg.error!.message));
        this.pump();
      },
    );
    worker.on('error', (err) => {
      const oom = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(
        slot,
        oom
          ? new ExtractionError('TOO_LARGE', `extraction exceeded the worker memory limit of ${this.maxHeapMb} MB`)
          : new ExtractionError('CORRUPT', `extraction worker crashed: ${err.message}`),
      );
    });
    worker.on('exit', () => this.fail(slot, new ExtractionError('CORRUPT', 'extraction worker exited unexpectedly')));
    worker.unref();
    return slot;
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.onAbort && slot.current?.job.signal) slot.current.job.signal.removeEventListener('abort', slot.onAbort);
    slot.timer = null;
    slot.onAbort = null;
    slot.current = null;
    slot.worker.unref();
  }

  /** Fails the slot's job (if any) and replaces its worker. */
  private fail(slot: Slot, error: ExtractionError): void {
    const idx = this.slots.indexOf(slot);
    if (idx < 0) return; // already replaced
    const job = slot.current;
    this.release(slot);
    this.slots.splice(idx, 1);
    slot.worker.removeAllListeners('exit');
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
    if (!this.closed) {
      this.replacements++;
      this.slots.push(this.spawn());
    }
    job?.reject(error);
    this.pump();
  }

  /** Runs one job in a worker; resolves to the result of its kind (an Extraction by default). */
  run<K extends JobKind = 'extract'>(job: PoolJob & { kind?: K }): Promise<JobResults[K]> {
    if (this.closed) return Promise.reject(new ExtractionError('OVERLOADED', 'extraction pool is closed'));
    if (job.signal?.aborted) return Promise.reject(new ExtractionError('ABORTED', 'extraction aborted'));
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(new ExtractionError('OVERLOADED', `extraction queue is full (${this.maxQueue} waiting)`));
    }
    return new Promise<JobResults[K]>((resolve, reject) => {
      const pending: Pending = { id: this.nextId++, job, resolve: resolve as Pending['resolve'], reject };
      if (job.interactive === true) {
        let at = 0;
        while (at < this.queue.length && this.queue[at].job.interactive === true) at++;
        this.queue.splice(at, 0, pending);
      } else this.queue.push(pending);
      job.signal?.addEventListener(
        'abort',
        () => {
          const i = this.queue.indexOf(pending);
          if (i >= 0) {
            this.queue.splice(i, 1);
            reject(new ExtractionError('ABORTED', 'extraction aborted'));
          }
        },
        { once: true },
      );
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      const next = this.queue.shift();
      if (!next) return;
      this.dispatch(slot, next);
    }
  }

  private dispatch(slot: Slot, pending: Pending): void {
    const { job } = pending;
    slot.current = pending;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.fail(
        slot,
        new ExtractionError('TIMEOUT', `extraction exceeded the wall-time limit of ${job.limits.timeoutMs} ms`),
      );
    }, job.limits.timeoutMs);
    if (job.signal) {
      slot.onAbort = () => this.fail(slot, new ExtractionError('ABORTED', 'extraction aborted'));
      job.signal.addEventListener('abort', slot.onAbort, { once: true });
    }
    // Structured clone copies a view's whole underlying buffer, so views are compacted first.
    const whole = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength;
    const req: WorkerRequest = {
      id: pending.id,
      kind: job.kind,
      bytes: whole ? job.bytes : job.bytes.slice(),
      file: job.file,
      mediaType: job.mediaType,
      params: job.params,
      fileName: job.fileName,
      limits: { ...job.limits, maxDecompressedBytes: Math.min(job.limits.maxDecompressedBytes, this.inflateShare) },
    };
    slot.worker.postMessage(req);
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Terminates all workers; queued and running jobs reject with OVERLOADED. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new ExtractionError('OVERLOADED', 'extraction pool is closed'));
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map(async (s) => {
        const job = s.current;
        this.release(s);
        s.worker.removeAllListeners('exit');
        s.worker.on('error', () => undefined);
        job?.reject(new ExtractionError('OVERLOADED', 'extraction pool is closed'));
        await s.worker.terminate();
      }),
    );
  }
}
