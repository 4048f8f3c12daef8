/**
 * Memory admission for request bodies: the bytes of request bodies the server
 * holds at once, across all concurrent requests, stay within one budget.
 *
 * A body announced by Content-Length reserves its length before it is read; when
 * the budget has no room, the request waits in arrival order (first come, first
 * served: a large body is not overtaken forever by small ones) for up to `waitMs`,
 * then fails with BodyBudgetBusy (503 with Retry-After). A body longer than the whole
 * budget waits until it is alone. A chunked body reserves its bytes as they are
 * counted and never waits while holding some (no request holds part of the budget
 * while waiting for more, so two requests cannot block each other): without room it
 * fails at once. Bytes a reader moves out of memory (a binary spooled to disk) are
 * given back early with `release(n)`; the rest when the request ends.
 */
export class BodyBudgetBusy extends Error {
  override name = 'BodyBudgetBusy';
  constructor(readonly retryAfterSeconds: number) {
    super('the server is receiving too many request bodies at once; retry later');
  }
}

interface Waiter {
  bytes: number;
  grant: () => void;
  timer: ReturnType<typeof setTimeout>;
}

/** Bytes of one request's body held in the budget. */
export class BodyLease {
  constructor(
    private readonly budget: BodyBudget,
    public bytes: number,
  ) {}

  /** Gives back `n` bytes (default: all it holds); more than it holds is clamped. */
  release(n = this.bytes): void {
    const back = Math.min(Math.max(0, n), this.bytes);
    this.bytes -= back;
    this.budget.giveBack(back);
  }

  /** Takes `n` more bytes if the budget has room now (and nobody waits); false otherwise. */
  tryGrow(n: number): boolean {
    if (!this.budget.tryTake(n)) return false;
    this.bytes += n;
    return true;
  }
}

export class BodyBudget {
  private used = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly limit: number,
    readonly waitMs: number,
  ) {}

  /** Bytes reserved now (diagnostics, tests). */
  get inFlight(): number {
    return this.used;
  }

  /** Requests waiting for room (diagnostics, tests). */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Seconds a refused client is told to wait: the admission wait, at least 1. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.waitMs / 1000));
  }

  /** An empty lease, for a body counted while it is read (chunked). */
  empty(): BodyLease {
    return new BodyLease(this, 0);
  }

  /** Reserves `bytes` (at most the whole budget) in arrival order; rejects with BodyBudgetBusy after `waitMs`. */
  acquire(bytes: number): Promise<BodyLease> {
    const n = Math.min(Math.max(0, bytes), this.limit);
    if (this.waiters.length === 0 && this.fits(n)) {
      this.used += n;
      return Promise.resolve(new BodyLease(this, n));
    }
    if (this.waitMs === 0) return Promise.reject(new BodyBudgetBusy(this.retryAfterSeconds));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        bytes: n,
        grant: () => {
          clearTimeout(waiter.timer);
          this.used += n;
          resolve(new BodyLease(this, n));
        },
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new BodyBudgetBusy(this.retryAfterSeconds));
          this.admit(); // a large waiter at the head may have held smaller ones back
        }, this.waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** @internal Takes `n` bytes now if they fit and nobody waits. */
  tryTake(n: number): boolean {
    if (n <= 0) return true;
    if (this.waiters.length > 0 || this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  /** @internal */
  giveBack(n: number): void {
    if (n <= 0) return;
    this.used -= n;
    this.admit();
  }

  /** A reservation fits when there is room, or when nothing else is reserved (a body as large as the budget). */
  private fits(n: number): boolean {
    return this.used + n <= this.limit || this.used === 0;
  }

  private admit(): void {
    while (this.waiters.length > 0 && this.fits(this.waiters[0].bytes)) this.waiters.shift()!.grant();
  }
}
