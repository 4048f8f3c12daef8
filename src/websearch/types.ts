/**
 * Public types of the web search service (spec: Web search result, Web
 * search endpoint) and its documented defaults.
 */

export type WebSearchMode = 'search' | 'context' | 'engine2';
export const WEB_SEARCH_MODES: readonly WebSearchMode[] = ['search', 'context', 'engine2'];

/** One element of the endpoint's answer. */
export interface WebSearchResult {
  url: string;
  metadata: { title: string; description: string };
  content: string;
}

/** A validated request; omitted fields take the defaults below. */
export interface WebSearchRequest {
  queries: string[];
  /** Restrict to these hosts (subdomains included); empty or omitted: no restriction. */
  sites?: string[];
  /** Maximum results across all queries, duplicates removed. Default 10, capped at 50. */
  count?: number;
  /** Seconds for the whole request. Default 10, capped at 60. */
  timeout?: number;
  /** Full page content instead of snippets (see README: Web search). */
  deepSearch?: boolean;
  /** Default: the configured mode (WEB_SEARCH_DEFAULT_MODE), else `search`. */
  mode?: WebSearchMode;
}

export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 50;
export const DEFAULT_TIMEOUT_S = 10;
export const MAX_TIMEOUT_S = 60;
/** Request limits checked by the endpoint (422 beyond them). */
export const MAX_QUERIES = 10;
export const MAX_QUERY_CHARS = 400;
export const MAX_SITES = 20;

export interface WebSearchService {
  /** Run a web search; throws ServiceError 503 (provider not configured) or 502 (provider failed). */
  search(request: WebSearchRequest, signal?: AbortSignal): Promise<WebSearchResult[]>;
}
