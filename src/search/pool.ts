/**
 * Search on worker threads: the engine part of searches (service.ts `runPlan`)
 * runs on `size` workers, so that searches use every core while the main thread
 * serves HTTP, authenticates, validates and resolves visibility (`planSearch`).
 * The workers also pick the parts of the chat's attached files (`selectPassages`).
 *
 * Each worker searches the index's committed snapshots through an engine
 * SnapshotReader: before a job, a worker whose snapshot is older than the
 * index reader's gets `reader.share()` (segment images in shared memory, so no
 * copy of the index per thread; see engine/reader/shared-snapshot.ts). A search sees
 * the same commit it would on the main thread: read-your-commits holds.
 *
 * A viewer's token set is posted to a worker once (then named by an id) rather than with
 * every search. Jobs wait on this thread until the scheduler (scheduler.ts) lets them
 * start: a per-account limit, and separate lanes for cheap and expensive queries; a
 * job then goes to the worker the scheduler names. A worker that fails
 * (an uncaught error, out of memory) fails its jobs with an Error (a 500) and is
 * replaced. Workers are unref'd: an idle pool never keeps the process alive.
 * Inside the single executable (src/build/binary.ts) the worker is the bundled
 * script carried as the SEA asset `SEA_SEARCH_WORKER_ASSET`.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker, type BudgetCut, type Index } from '../../engine/index.ts';
import { RequestValidationError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { SearchJob, WorkerIn, WorkerOut } from './search-worker.ts';
import type { Language } from '../../engine/index.ts';
import { SearchRefusedError } from './limits.ts';
import { queryWords, SearchScheduler, type Lane } from './scheduler.ts';
import type { PlanRunner, RunFor, SearchPlan } from './service.ts';

export const SEA_SEARCH_WORKER_ASSET = 'search-worker.cjs';

interface Job {
  resolve: (out: { json: string; cut?: BudgetCut }) => void;
  reject: (err: Error) => void;
  account: string | null;
  lane: Lane;
}

/** How searches share the threads (scheduler.ts); defaults as the configuration's. */
export interface PoolScheduling {
  /** Searches of one account running at once (SEARCH_ACCOUNT_CONCURRENCY; default: threads - 1, at least 1). */
  perAccount?: number;
  /** Queries of more words than this are expensive (SEARCH_CHEAP_WORDS; default 16). */
  cheapWords?: number;
}

/** Default SEARCH_ACCOUNT_CONCURRENCY: every thread but one, at least one. */
export const defaultAccountConcurrency = (threads: number) => Math.max(1, threads - 1);
/** Default SEARCH_CHEAP_WORDS. */
export const DEFAULT_CHEAP_WORDS = 16;
/** Cheap searches in flight per worker (one running, one waiting in its message queue: no idle gap between them). */
const CHEAP_DEPTH = 2;

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
  private readonly scheduler: SearchScheduler;
  private readonly cheapWords: number;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly index: Index,
    size: number,
    private readonly log?: Logger,
    scheduling: PoolScheduling = {},
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('SearchPool: size must be a positive integer');
    for (let i = 0; i < size; i++) this.slots.push(this.start());
    this.scheduler = new SearchScheduler({
      threads: size,
      perAccount: scheduling.perAccount ?? defaultAccountConcurrency(size),
      expensiveThreads: Math.max(1, size - 1),
      depth: CHEAP_DEPTH,
    });
    this.cheapWords = scheduling.cheapWords ?? DEFAULT_CHEAP_WORDS;
  }

  /** Searches answered by the workers so far (results and query errors). */
  answered = 0;

  get size(): number {
    return this.slots.length;
  }

  /** Searches waiting for a thread (per-account limit, lanes). */
  get queued(): number {
    return this.scheduler.queued;
  }

  /** Searches of `account` running on a thread now. */
  runningOf(account: string): number {
    return this.scheduler.runningOf(account);
  }

  /** The lane of a search of `query` (scheduler.ts). */
  laneOf(query: string): Lane {
    return queryWords(query) > this.cheapWords ? 'expensive' : 'cheap';
  }

  /**
   * Queues a job with the scheduler; once it may start on a thread, `message(slot)` makes its
   * message for that worker. Resolves with the worker's answer.
   */
  private schedule(
    account: string | null,
    lane: Lane,
    message: (slot: Slot, id: number) => WorkerIn,
  ): Promise<{ json: string; cut?: BudgetCut }> {
    if (this.closed) return Promise.reject(new Error('search pool is closed'));
    return new Promise((resolve, reject) => {
      const job: Job = { resolve, reject, account, lane };
      this.scheduler.submit({
        account,
        lane,
        cancel: reject,
        start: (thread) => {
          const slot = this.slots[thread];
          const id = this.nextId++;
          slot.jobs.set(id, job);
          if (slot.jobs.size === 1) slot.worker.ref();
          slot.worker.postMessage(message(slot, id));
        },
      });
    });
  }

  /** passages/select.ts selectRelevant on a worker (SelectPassagesFn): the chat's attached files, in the cheap lane. */
  async selectPassages(text: string, question: string, budget: number, language: Language): Promise<string> {
    const out = await this.schedule(null, 'cheap', (_slot, id) => ({
      type: 'select',
      id,
      text,
      question,
      budget,
      language,
    }));
    return out.json;
  }

  runJson(plan: SearchPlan, runFor: RunFor): Promise<{ json: string; cut?: BudgetCut }> {
    return this.schedule(runFor.account, this.laneOf(plan.query), (slot, id) => {
      const reader = this.index.reader;
      if (slot.generation !== reader.generation) {
        slot.worker.postMessage({ type: 'snapshot', snapshot: reader.share() } satisfies WorkerIn);
        slot.generation = reader.generation;
      }
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
      return job;
    });
  }

  /**
   * Stops taking jobs and fails the ones still waiting, lets the jobs in flight finish (up to
   * `graceMs`, then fails them), stops the workers.
   */
  async close(graceMs = 10_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const deadline = Date.now() + graceMs;
    while (this.slots.some((s) => s.jobs.size > 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const closed = new Error('search pool closed');
    for (const waiting of this.scheduler.drain()) waiting.cancel(closed);
    const slots = this.slots.splice(0);
    for (const s of slots) this.failJobs(s, closed);
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
      if ('json' in m) job.resolve(m.cut ? { json: m.json, cut: m.cut } : { json: m.json });
      else if ('validation' in m)
        job.reject(
          m.refused ? new SearchRefusedError(m.refused, m.validation) : new RequestValidationError(m.validation),
        );
      else job.reject(new Error(`search failed: ${m.error}`));
      const thread = this.slots.indexOf(slot);
      if (thread >= 0) this.scheduler.finish(thread, job.account, job.lane);
    });
    const replace = (why: string) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return; // closed or already replaced
      this.log?.error('search worker failed; replacing it', { message: why });
      // the new worker takes the thread first: failing the jobs lets waiting ones start there
      this.slots[i] = this.start();
      this.failJobs(slot, new Error(`search worker failed: ${why}`), i);
      void slot.worker.terminate().catch(() => undefined);
    };
    slot.worker.on('error', (err) => replace(String(err?.message ?? err)));
    slot.worker.on('exit', (code) => replace(`exited with code ${code}`));
    return slot;
  }

  /** Fails the jobs in flight on `slot`; with `thread`, tells the scheduler they left it (-1: the pool is closed). */
  private failJobs(slot: Slot, err: Error, thread = -1): void {
    const jobs = [...slot.jobs.values()];
    slot.jobs.clear();
    for (const job of jobs) {
      job.reject(err);
      if (thread >= 0) this.scheduler.finish(thread, job.account, job.lane);
    }
  }
}
