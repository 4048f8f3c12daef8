/**
 * Bounded memory of search analytics (nothing here is written to disk):
 *
 * - `RecentQueries`: the result pages shown lately (query id -> the account
 *   that saw it, its page and its result ids), so that a click names a
 *   result that was really shown at that rank to that account. At most
 *   MAX_QUERIES entries, each kept TTL_MS; the oldest go first. A click on a
 *   page older than that (or shown before a restart) is refused.
 * - `MinuteBudget`: events per key (an account) in the current minute, so
 *   that no account can write more than a fixed number of records a minute.
 */

const MAX_QUERIES = 10_000;
const TTL_MS = 60 * 60_000;

export interface ShownPage {
  accountId: string;
  page: number;
  resultIds: string[];
  shownAt: number;
}

export class RecentQueries {
  private readonly pages = new Map<string, ShownPage>();

  constructor(private readonly now: () => number) {}

  remember(queryId: string, page: ShownPage): void {
    this.pages.set(queryId, page);
    for (const [id, shown] of this.pages) {
      if (this.pages.size <= MAX_QUERIES && this.now() - shown.shownAt <= TTL_MS) break;
      this.pages.delete(id);
    }
  }

  /** The page shown under `queryId` to `accountId`, while it is remembered. */
  find(queryId: string, accountId: string): ShownPage | undefined {
    const shown = this.pages.get(queryId);
    if (!shown || shown.accountId !== accountId || this.now() - shown.shownAt > TTL_MS) return undefined;
    return shown;
  }

  /** Forget the pages of an account (its history was deleted). */
  forget(accountId: string): void {
    for (const [id, shown] of this.pages) if (shown.accountId === accountId) this.pages.delete(id);
  }
}

export class MinuteBudget {
  private minute = -1;
  private readonly used = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Take one from `key`'s budget of this minute: false when it is spent. */
  take(key: string): boolean {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.used.clear();
    }
    const n = this.used.get(key) ?? 0;
    if (n >= this.perMinute) return false;
    this.used.set(key, n + 1);
    return true;
  }

  /** Seconds until the budgets are renewed. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((60_000 - (this.now() % 60_000)) / 1000));
  }
}
