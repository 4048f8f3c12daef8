/**
 * The analytics report of a period (GET /api/admin/analytics and the
 * dashboard's analytics page), computed in one pass over the records of the
 * period, oldest first. Every result page shown counts as one query.
 *
 * - totals: queries, zero-result queries, clicks, queries with at least one
 *   click, click-through rate (queries with a click / queries; null without
 *   queries), mean clicked position (1-based over all pages; null without
 *   clicks), distinct searchers (accounts, or in anonymous mode sessions per
 *   day), feedback up and down;
 * - top queries (count, clicked, zero-result count) and zero-result queries
 *   (count, last time), `limit` of each, most frequent first;
 * - the feedback, newest first (at most MAX_FEEDBACK): a person's later
 *   rating of the same answer replaces the earlier one.
 * Memory is bounded: at most MAX_DISTINCT query texts are grouped (later new
 * texts count in the totals only, and `truncated` says so).
 */
import type { AnalyticsMode } from '../config.ts';
import type { AnalyticsRecord, FeedbackRecord } from './records.ts';

const MAX_DISTINCT = 100_000;
const MAX_FEEDBACK = 200;

export interface QueryCount {
  query: string;
  count: number;
  /** Of these, shown pages with at least one click. */
  clicked: number;
  /** Of these, searches that found nothing. */
  zero: number;
  last_at: string;
}

export type FeedbackItem = Omit<FeedbackRecord, 'type' | 'id'>;

export interface AnalyticsReport {
  from: string;
  to: string;
  mode: AnalyticsMode;
  totals: {
    queries: number;
    zero_result_queries: number;
    clicks: number;
    clicked_queries: number;
    click_through_rate: number | null;
    mean_clicked_position: number | null;
    searchers: number;
    feedback_up: number;
    feedback_down: number;
  };
  top_queries: QueryCount[];
  zero_result_queries: QueryCount[];
  feedback: FeedbackItem[];
  truncated: boolean;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

function mostFrequent(counts: Iterable<QueryCount>, limit: number): QueryCount[] {
  return [...counts]
    .sort((a, b) => b.count - a.count || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
    .slice(0, limit);
}

interface Group extends QueryCount {
  zeroLastAt: string;
}

export async function buildReport(
  records: AsyncIterable<AnalyticsRecord>,
  period: { fromMs: number; toMs: number; mode: AnalyticsMode; limit: number },
): Promise<AnalyticsReport> {
  const groups = new Map<string, Group>();
  /** Query id -> its group's text (undefined when the text was not grouped). */
  const shown = new Map<string, string | undefined>();
  const clickedIds = new Set<string>();
  const searchers = new Set<string>();
  const feedback = new Map<string, FeedbackItem>();
  let zero = 0;
  let clicks = 0;
  let positions = 0;
  let truncated = false;
  for await (const r of records) {
    if (r.type === 'query') {
      if (r.zero) zero++;
      searchers.add(r.account !== undefined ? `a:${r.account}` : `v:${r.visitor}`);
      let group = groups.get(r.query);
      if (!group && groups.size < MAX_DISTINCT) {
        group = { query: r.query, count: 0, clicked: 0, zero: 0, last_at: r.at, zeroLastAt: '' };
        groups.set(r.query, group);
      }
      truncated ||= !group;
      shown.set(r.id, group?.query);
      if (!group) continue;
      group.count++;
      group.last_at = r.at;
      if (r.zero) {
        group.zero++;
        group.zeroLastAt = r.at;
      }
    } else if (r.type === 'click') {
      clicks++;
      positions += r.position;
      if (!shown.has(r.query_id) || clickedIds.has(r.query_id)) continue;
      clickedIds.add(r.query_id);
      const text = shown.get(r.query_id);
      if (text !== undefined) groups.get(text)!.clicked++;
    } else {
      const { type: _type, id, account, visitor, ...item } = r;
      const key = `${account ?? visitor}\u0000${id}`;
      feedback.delete(key);
      feedback.set(key, item);
    }
  }
  const queries = shown.size;
  const items = [...feedback.values()].reverse();
  const plain = ({ zeroLastAt: _z, ...g }: Group): QueryCount => g;
  return {
    from: new Date(period.fromMs).toISOString(),
    to: new Date(period.toMs).toISOString(),
    mode: period.mode,
    totals: {
      queries,
      zero_result_queries: zero,
      clicks,
      clicked_queries: clickedIds.size,
      click_through_rate: queries === 0 ? null : round(clickedIds.size / queries, 4),
      mean_clicked_position: clicks === 0 ? null : round(positions / clicks, 2),
      searchers: searchers.size,
      feedback_up: items.filter((f) => f.rating === 'up').length,
      feedback_down: items.filter((f) => f.rating === 'down').length,
    },
    top_queries: mostFrequent([...groups.values()].map(plain), period.limit),
    zero_result_queries: mostFrequent(
      [...groups.values()]
        .filter((g) => g.zero > 0)
        .map((g) => ({ ...plain(g), count: g.zero, last_at: g.zeroLastAt })),
      period.limit,
    ),
    feedback: items.slice(0, MAX_FEEDBACK),
    truncated,
  };
}
