/**
 * Search analytics and answer feedback (domain, no HTTP): the search page's
 * result pages, clicks on results, and ratings of chat answers, appended to
 * day files under DATA_DIR/analytics (storage/daily-log.ts) and kept for
 * ANALYTICS_RETENTION_DAYS.
 *
 * Modes (ANALYTICS): `off` records nothing; `on` records the account id;
 * `anonymous` records no account but a visitor id, HMAC-SHA-256 of the
 * session id under a random salt that lives only in memory and is replaced
 * every UTC day (and at every start), so the sessions of one day can be
 * counted while nobody, the operator included, can tie a record to a person.
 *
 * Bounds: each account may have QUERIES_PER_MINUTE result pages and
 * EVENTS_PER_MINUTE clicks or ratings recorded a minute; beyond that result
 * pages are not recorded and events are refused (429). A click must name a
 * result page recently shown to the same account, and the result shown at
 * that rank (recent.ts). `deleteHistory` physically removes every record
 * naming an account (anonymous records name nobody and stay).
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { AnalyticsMode } from '../config.ts';
import { RequestValidationError, ServiceError, tooManyRequests } from '../errors.ts';
import type { Logger } from '../log.ts';
import { DailyLog, dayOf } from '../storage/daily-log.ts';
import { base64url } from '../accounts/secrets.ts';
import { MinuteBudget, RecentQueries } from './recent.ts';
import {
  normalizeQuery,
  RESULTS_PER_PAGE,
  type AnalyticsRecord,
  type EventInput,
  type QueryRecord,
  type Who,
} from './records.ts';
import { buildReport, type AnalyticsReport } from './report.ts';

export const QUERIES_PER_MINUTE = 60;
export const EVENTS_PER_MINUTE = 60;

/** The signed-in person a record is about. */
export interface Searcher {
  accountId: string;
  sessionId: string;
}

/** A result page as the search page showed it. */
export interface ShownResults {
  query: string;
  language: string;
  filters: Record<string, string>;
  page: number;
  resultIds: string[];
}

export interface AnalyticsOptions {
  dir: string;
  log: Logger;
  now: () => number;
  mode: AnalyticsMode;
  retentionDays: number;
}

/** Where the analytics day files live. */
export const analyticsDir = (dataDir: string): string => join(dataDir, 'analytics');

const invalid = (field: string, msg: string, input: unknown) =>
  new RequestValidationError([{ type: 'value_error', loc: ['body', field], msg: `Value error, ${msg}`, input }]);

export class SearchAnalytics {
  readonly mode: AnalyticsMode;
  readonly retentionDays: number;
  private opened: DailyLog<AnalyticsRecord> | undefined;
  private readonly options: AnalyticsOptions;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly recent: RecentQueries;
  private readonly queryBudget: MinuteBudget;
  private readonly eventBudget: MinuteBudget;
  private salt = { day: '', key: new Uint8Array() };

  constructor(opts: AnalyticsOptions) {
    this.options = opts;
    this.mode = opts.mode;
    this.retentionDays = opts.retentionDays;
    this.now = opts.now;
    this.log = opts.log;
    this.recent = new RecentQueries(opts.now);
    this.queryBudget = new MinuteBudget(QUERIES_PER_MINUTE, opts.now);
    this.eventBudget = new MinuteBudget(EVENTS_PER_MINUTE, opts.now);
  }

  /** The day files, opened (and their directory made) on first use. */
  private get days(): DailyLog<AnalyticsRecord> {
    return (this.opened ??= new DailyLog<AnalyticsRecord>(this.options));
  }

  /** Who a record names in the current mode. */
  private who(searcher: Searcher): Who {
    if (this.mode === 'on') return { account: searcher.accountId };
    const day = dayOf(this.now());
    if (this.salt.day !== day) this.salt = { day, key: crypto.getRandomValues(new Uint8Array(32)) };
    const mac = createHmac('sha256', this.salt.key).update(searcher.sessionId).digest();
    return { visitor: base64url(new Uint8Array(mac.subarray(0, 16))) };
  }

  /**
   * Record a result page the search page shows (without waiting for the disk: the page does not
   * depend on it). Answers the query id clicks refer to, or undefined when nothing was recorded
   * (analytics off, or the account's budget of this minute spent).
   */
  recordQuery(searcher: Searcher, shown: ShownResults): string | undefined {
    if (this.mode === 'off' || !this.queryBudget.take(searcher.accountId)) return undefined;
    const id = `q_${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
    const resultIds = shown.resultIds.slice(0, RESULTS_PER_PAGE);
    this.recent.remember(id, { accountId: searcher.accountId, page: shown.page, resultIds, shownAt: this.now() });
    const record: QueryRecord & Who = {
      at: new Date(this.now()).toISOString(),
      type: 'query',
      id,
      ...this.who(searcher),
      query: normalizeQuery(shown.query),
      language: shown.language.slice(0, 10),
      filters: Object.fromEntries(Object.entries(shown.filters).map(([k, v]) => [k.slice(0, 40), v.slice(0, 200)])),
      page: shown.page,
      results: resultIds.length,
      zero: resultIds.length === 0 && shown.page === 1,
    };
    this.days.append(record).catch((err) => this.log.warn('analytics record not written', { error: String(err) }));
    return id;
  }

  /** Record a click or a rating; resolves once it is durable. */
  async recordEvent(searcher: Searcher, event: EventInput): Promise<void> {
    if (this.mode === 'off') {
      throw new ServiceError('NOT_FOUND', 'Search analytics are turned off on this server (ANALYTICS=off)');
    }
    const at = new Date(this.now()).toISOString();
    let record: AnalyticsRecord;
    if (event.type === 'click') {
      const shown = this.recent.find(event.query_id, searcher.accountId);
      if (!shown)
        throw invalid('query_id', 'no result page with this id was shown lately; search again', event.query_id);
      if (shown.page !== event.page) throw invalid('page', `the result page shown was page ${shown.page}`, event.page);
      if (shown.resultIds[event.rank - 1] !== event.result_id) {
        throw invalid('result_id', `this is not the result shown at rank ${event.rank}`, event.result_id);
      }
      const position = (event.page - 1) * RESULTS_PER_PAGE + event.rank;
      record = { at, ...this.who(searcher), ...event, position };
    } else {
      record = { at, ...this.who(searcher), ...event };
    }
    if (!this.eventBudget.take(searcher.accountId)) {
      throw tooManyRequests(
        `At most ${EVENTS_PER_MINUTE} analytics events a minute per account; try again later`,
        this.eventBudget.retryAfterSeconds(),
      );
    }
    await this.days.append(record);
  }

  /** Resolves when every record started so far is on disk (or failed); result pages are not awaited. */
  async settled(): Promise<void> {
    await this.opened?.drained();
  }

  /** Remove every record naming `accountId` from the disk; answers how many were removed. */
  async deleteHistory(accountId: string): Promise<number> {
    this.recent.forget(accountId);
    const removed = await this.days.removeWhere((r) => r.account === accountId);
    this.log.info('analytics history deleted', { accountId, removed });
    return removed;
  }

  /** The report of a period (report.ts). */
  report(period: { fromMs: number; toMs: number; limit: number }): Promise<AnalyticsReport> {
    return buildReport(this.days.stream(period), { ...period, mode: this.mode });
  }

  async close(): Promise<void> {
    await this.opened?.close();
  }
}
