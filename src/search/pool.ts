/**
 * Search on worker threads: the engine part of searches (service.ts `runPlan`)
 * runs on `size` workers, so that searches use every core while the main thread
 * serves HTTP, authenticates, validates and resolves visibility (`planSearch`).
 * The workers also pick the parts of the chat's attached files (`selectPassages`).
 *
 * Each worker searches the index's committed snapshots through an engine
 * SnapshotReader: before a job, a worker whose snapshot is older than the
 * index reader's gets `reader.share()` (segment images in shared memory, so no
 * copy of the index per thread; see engine/shared-snapshot.ts). A search sees
 * the same commit it would on the main thread: read-your-commits holds.
 *
 * A viewer's token set is posted to a worker once (then named by an id) rather than with
 * every search. A job goes to the worker with the fewest jobs in flight (ties in turn). A worker that fails
 * (an uncaught error, out of memory) fails its jobs with an Error (a 500) and is
 * replaced. Workers are unref'd: an idle pool never keeps the process alive.
 * Inside the single executable (src/build/binary.ts) the worker is the bundled
 * script carried as the SEA asset `SEA_SEARCH_WORKER_ASSET`.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker, type Index } from '../../engine/index.ts';
import { RequestValidationError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { SearchJob, WorkerIn, WorkerOut } from './search-worker.ts';
import type { Language } from '../../engine/index.ts';
import type { PlanRunner, SearchPlan } from './service.ts';

export const SEA_SEARCH_WORKER_ASSET = 'search-worker.cjs';

interface Job {
  resolve: (json: string) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Generation of the snapshot last posted to the worker (-1: none). */
  generation: number;
  jobs: Map<number, Job>;
  /** Viewer ids whose token sets the worker holds (search-worker.ts SearchJob). */
  viewers: Set<number>;
}

/** Token sets a worker remembers before it is told to forget them all. */
const MAX_VIEWERS = 1024;

/** Ids of token-set arrays (visibleTokens returns the same array while it is valid). */
const viewerIds = new WeakMap<readonly string[], number>();
let nextViewer = 1;
function viewerId(tokens: readonly string[]): number {
  let id = viewerIds.get(tokens);
  if (id === undefined) viewerIds.set(tokens, (id = nextViewer++));
  return id;
}

export class SearchPool implements PlanRunner {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private turn = 0;
  private closed = false;

  constructor(
    private readonly index: Index,
    size: number,
    private readonly log?: Logger,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('SearchPool: size must be a positive integer');
    for (let i = 0; i < size; i++) this.slots.push(this.start());
  }

  /** Searches answered by the workers so far (results and query errors). */
  answered = 0;

  get size(): number {
    return this.slots.length;
  }

  /** The worker with the fewest jobs in flight; ties rotate, so that every worker stays warm (JIT, caches). */
  private pick(): Slot {
    const n = this.slots.length;
    const from = this.turn++ % n;
    let slot = this.slots[from];
    for (let i = 1; i < n; i++) {
      const s = this.slots[(from + i) % n];
      if (s.jobs.size < slot.jobs.size) slot = s;
    }
    return slot;
  }

  /** Posts `job` to `slot` and resolves with its answer (see the worker's protocol). */
  private post(slot: Slot, id: number, job: WorkerIn): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      slot.jobs.set(id, { resolve, reject });
      if (slot.jobs.size === 1) slot.worker.ref();
      slot.worker.postMessage(job);
    });
  }

  /** passages/select.ts selectRelevant on a worker (SelectPassagesFn): the chat's attached files. */
  selectPassages(text: string, question: string, budget: number, language: Language): Promise<string> {
    if (this.closed) return Promise.reject(new Error('search pool is closed'));
    const id = this.nextId++;
    return this.post(this.pick(), id, { type: 'select', id, text, question, budget, language });
  }

  runJson(plan: SearchPlan): Promise<string> {
    if (this.closed) return Promise.reject(new Error('search pool is closed'));
    const slot = this.pick();
    const reader = this.index.reader;
    if (slot.generation !== reader.generation) {
      slot.worker.postMessage({ type: 'snapshot', snapshot: reader.share() } satisfies WorkerIn);
      slot.generation = reader.generation;
    }
    const id = this.nextId++;
    const { tokens, ...rest } = plan;
    const job: SearchJob = { type: 'search', id, plan: rest, viewer: viewerId(tokens) };
    if (!slot.viewers.has(job.viewer)) {
      if (slot.viewers.size >= MAX_VIEWERS) {
        slot.viewers.clear();
        job.reset = true;
      }
      slot.viewers.add(job.viewer);
      job.tokens = tokens;
    }
    return this.post(slot, id, job);
  }

  /** Stops taking jobs, lets the jobs in flight finish (up to `graceMs`, then fails them), stops the workers. */
  async close(graceMs = 10_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const deadline = Date.now() + graceMs;
    while (this.slots.some((s) => s.jobs.size > 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const slots = this.slots.splice(0);
    for (const s of slots) this.failJobs(s, new Error('search pool closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private start(): Slot {
    const worker = startModuleWorker(new URL('./search-worker.ts', import.meta.url), SEA_SEARCH_WORKER_ASSET);
    const slot: Slot = { worker, generation: -1, jobs: new Map(), viewers: new Set() };
    slot.worker.unref();
    slot.worker.on('message', (m: WorkerOut) => {
      const job = slot.jobs.get(m.id);
      if (!job) return;
      slot.jobs.delete(m.id);
      if (slot.jobs.size === 0) slot.worker.unref();
      if (!('error' in m)) this.answered++;
      if ('json' in m) job.resolve(m.json);
      else if ('validation' in m) job.reject(new RequestValidationError(m.validation));
      else job.reject(new Error(`search failed: ${m.error}`));
    });
    const replace = (why: string) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return; // closed or already replaced
      this.log?.error('search worker failed; replacing it', { message: why });
      this.failJobs(slot, new Error(`search worker failed: ${why}`));
      void slot.worker.terminate().catch(() => undefined);
      this.slots[i] = this.start();
    };
    slot.worker.on('error', (err) => replace(String(err?.message ?? err)));
    slot.worker.on('exit', (code) => replace(`exited with code ${code}`));
    return slot;
  }

  private failJobs(slot: Slot, err: Error): void {
    for (const job of slot.jobs.values()) job.reject(err);
    slot.jobs.clear();
  }
}
