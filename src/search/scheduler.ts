/**
 * Fair scheduling of searches on the search threads (pool.ts), so that no key
 * holder can take the threads from everyone else (README, Search threads):
 *
 * - Per-account limit: at most `perAccount` searches of one account run at
 *   once; its other searches wait in its queue.
 * - Two lanes by planned cost: a query of at most `cheapWords` words is cheap,
 *   a longer one expensive (its cost grows with its clauses: every window of the
 *   engine's MaxScore bounds every clause). Expensive searches run on at most
 *   `expensiveThreads` threads at once, each alone on its thread; cheap ones go
 *   to threads that run no expensive search, at most `depth` per thread, and
 *   start before any waiting expensive one. So with two or more threads a cheap
 *   search never waits behind an expensive one. While an expensive search waits
 *   for a thread it may use, one thread takes no new cheap searches until it is
 *   idle (so a steady stream of cheap searches cannot starve the expensive lane).
 * - Within a lane, searches start in arrival order, skipping those whose account
 *   is at its limit.
 *
 * Pure bookkeeping: `submit` queues a job and starts what can start (calling its
 * `start(thread)`), `finish` frees its place. No timers; the pool posts the work.
 */

export type Lane = 'cheap' | 'expensive';

export interface SchedulerOptions {
  threads: number;
  /** Searches of one account running at once (SEARCH_ACCOUNT_CONCURRENCY). */
  perAccount: number;
  /** Threads that may run an expensive search at once. */
  expensiveThreads: number;
  /** Cheap jobs in flight per thread (one running, the others waiting in its message queue). */
  depth: number;
}

export interface ScheduledJob {
  /** The account the search runs for; null: not counted against any account (e.g. the chat's file passages). */
  account: string | null;
  lane: Lane;
  /** Called once, when the job may run on `thread`. */
  start: (thread: number) => void;
  /** Called instead of `start` for a job still waiting when the scheduler is drained. */
  cancel: (err: Error) => void;
}

interface Waiting extends ScheduledJob {
  seq: number;
}

const NO_ACCOUNT = '';

/** Words of a query: runs of characters other than whitespace and ASCII punctuation (an upper bound of its clauses). */
export function queryWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const separator = c <= 0x2f || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7f);
    const space = c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200b);
    if (separator || space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}

export class SearchScheduler {
  /** Per lane, per account: its waiting jobs in arrival order. */
  private readonly waiting: Record<Lane, Map<string, Waiting[]>> = { cheap: new Map(), expensive: new Map() };
  private readonly inFlight: number[];
  /** Per thread: whether it runs an expensive job. */
  private readonly expensiveOn: boolean[];
  private expensiveRunning = 0;
  private readonly running = new Map<string, number>();
  private seq = 0;
  private turn = 0;
  /** The thread kept free of new cheap jobs for a waiting expensive one, or -1. */
  private reserved = -1;

  constructor(private readonly o: SchedulerOptions) {
    if (!(o.threads >= 1 && o.perAccount >= 1 && o.expensiveThreads >= 1 && o.depth >= 1))
      throw new RangeError('SearchScheduler: threads, perAccount, expensiveThreads and depth must be at least 1');
    this.inFlight = new Array<number>(o.threads).fill(0);
    this.expensiveOn = new Array<boolean>(o.threads).fill(false);
  }

  /** Queues `job` and starts every job that can start now. */
  submit(job: ScheduledJob): void {
    const key = job.account ?? NO_ACCOUNT;
    const lane = this.waiting[job.lane];
    let q = lane.get(key);
    if (q === undefined) lane.set(key, (q = []));
    q.push({ ...job, seq: this.seq++ });
    this.dispatch();
  }

  /** A job started on `thread` has ended (answered or failed); starts what can start now. */
  finish(thread: number, account: string | null, lane: Lane): void {
    this.inFlight[thread]--;
    if (lane === 'expensive') {
      this.expensiveOn[thread] = false;
      this.expensiveRunning--;
    }
    if (account !== null) {
      const n = (this.running.get(account) ?? 1) - 1;
      if (n === 0) this.running.delete(account);
      else this.running.set(account, n);
    }
    this.dispatch();
  }

  /** Removes every waiting job and returns them (the pool is closing). */
  drain(): ScheduledJob[] {
    const out: Waiting[] = [];
    for (const lane of Object.values(this.waiting)) {
      for (const q of lane.values()) out.push(...q);
      lane.clear();
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Searches of `account` running now. */
  runningOf(account: string): number {
    return this.running.get(account) ?? 0;
  }

  /** Jobs waiting to start (all lanes and accounts). */
  get queued(): number {
    let n = 0;
    for (const lane of Object.values(this.waiting)) for (const q of lane.values()) n += q.length;
    return n;
  }

  private dispatch(): void {
    for (;;) {
      this.reserved = this.reserveFor();
      if (!this.startNext('cheap') && !this.startNext('expensive')) return;
    }
  }

  /** The account key of the oldest job of `lane` whose account is under its limit, or null. */
  private nextOf(lane: Lane): string | null {
    let key: string | null = null;
    let seq = Infinity;
    for (const [k, q] of this.waiting[lane]) {
      const head = q[0];
      if (head.account !== null && (this.running.get(head.account) ?? 0) >= this.o.perAccount) continue;
      if (head.seq < seq) {
        seq = head.seq;
        key = k;
      }
    }
    return key;
  }

  /** While an expensive job could start but finds no idle thread: the thread to let drain (fewest in flight), else -1. */
  private reserveFor(): number {
    if (this.expensiveRunning >= this.o.expensiveThreads || this.nextOf('expensive') === null) return -1;
    let best = -1;
    for (let t = 0; t < this.o.threads; t++) {
      if (this.expensiveOn[t]) continue;
      if (best < 0 || this.inFlight[t] < this.inFlight[best]) best = t;
    }
    return best;
  }

  /** Starts the oldest job of `lane` whose account is under its limit, if a thread can take it. */
  private startNext(lane: Lane): boolean {
    const thread = lane === 'cheap' ? this.cheapThread() : this.expensiveThread();
    if (thread < 0) return false;
    const key = this.nextOf(lane);
    if (key === null) return false;
    const q = this.waiting[lane].get(key)!;
    const best = q.shift()!;
    if (q.length === 0) this.waiting[lane].delete(key);
    this.inFlight[thread]++;
    if (lane === 'expensive') {
      this.expensiveOn[thread] = true;
      this.expensiveRunning++;
    }
    if (best.account !== null) this.running.set(best.account, (this.running.get(best.account) ?? 0) + 1);
    best.start(thread);
    return true;
  }

  /**
   * A thread running no expensive job, below `depth` jobs and not kept free for an expensive
   * one, with the fewest in flight (ties in turn), or -1.
   */
  private cheapThread(): number {
    const n = this.o.threads;
    const from = this.turn++ % n;
    let best = -1;
    for (let i = 0; i < n; i++) {
      const t = (from + i) % n;
      if (this.expensiveOn[t] || this.inFlight[t] >= this.o.depth || t === this.reserved) continue;
      if (best < 0 || this.inFlight[t] < this.inFlight[best]) best = t;
    }
    return best;
  }

  /** An idle thread, while fewer than `expensiveThreads` run expensive jobs, or -1. */
  private expensiveThread(): number {
    if (this.expensiveRunning >= this.o.expensiveThreads) return -1;
    const n = this.o.threads;
    const from = this.turn++ % n;
    for (let i = 0; i < n; i++) {
      const t = (from + i) % n;
      if (this.inFlight[t] === 0) return t;
    }
    return -1;
  }
}
