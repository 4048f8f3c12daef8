/**
 * Search analytics on the search page: a result page the page shows is
 * recorded server-side from the same data it renders (the validated API
 * parameters and the result records), and the browser module gets what its
 * click events refer to (the query id, the page, the result ids in rank
 * order) in the page data. Nothing is recorded when analytics are off or
 * the account's budget of the minute is spent (src/analytics/analytics.ts).
 */
import type { SearchAnalytics } from '../../../analytics/analytics.ts';
import type { SearchResult } from '../../../search/result.ts';
import type { Viewer } from '../../env.ts';

/** What client/search/clicks.ts reads from the page data. */
export interface SearchTracking {
  query_id: string;
  page: number;
  results: string[];
}

const FILTERS = ['data_source', 'file_type', 'last_modified_date'] as const;

/** Record the shown page; answers the page data of the click events, or undefined when not recorded. */
export function trackResults(
  analytics: SearchAnalytics | undefined,
  viewer: Viewer,
  apiQuery: Record<string, string>,
  results: SearchResult[],
  page: number,
): SearchTracking | undefined {
  if (!analytics) return undefined;
  const ids = results.map((r) => r.id);
  const filters = Object.fromEntries(FILTERS.filter((f) => apiQuery[f] !== undefined).map((f) => [f, apiQuery[f]]));
  const queryId = analytics.recordQuery(
    { accountId: viewer.accountId, sessionId: viewer.sessionId },
    { query: apiQuery.query ?? '', language: apiQuery.language ?? '', filters, page, resultIds: ids },
  );
  return queryId === undefined ? undefined : { query_id: queryId, page, results: ids };
}
