/**
 * The web search service behind POST /api/beta/web_search (and the chat's
 * `webSearch` tool). Modes:
 * - `search`: Brave web search, then every hit's page is crawled for its main
 *   content (cut at `contentChars`; with `deep_search` at `deepContentChars`,
 *   with Brave's extra snippets as the fallback for pages not read);
 * - `context`: Brave LLM context; a synthesized summary first, then grounded
 *   source snippets; nothing is crawled (`deep_search` doubles the token budget);
 * - `engine2`: SearXNG; snippets, or crawled full content with `deep_search`.
 * Queries run in parallel; hits are interleaved by rank across queries,
 * restricted to absolute http(s) URLs and to `sites`, de-duplicated by
 * normalised URL and cut at `count`.
 * Everything happens within the request's `timeout`: hits whose pages were not
 * read in time keep their snippets; queries whose provider call did not finish
 * are left out, and when no query finished the answer is 502.
 */
import type { Config } from '../config.ts';
import { ServiceError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { abortScope } from './abort.ts';
import { sourceResult, summaryResult } from './context-summary.ts';
import { type PageExtractors, poolPageExtractors } from './page-content.ts';
import { crawlHits, snippetResult } from './page-results.ts';
import { createBraveProvider } from './providers/brave.ts';
import { createSearxngProvider } from './providers/searxng.ts';
import { type ContextProvider, ProviderError, type SearchHit, type WebSearchProvider } from './providers/types.ts';
import { type AddressPolicy, createAddressPolicy } from './ssrf.ts';
import {
  DEFAULT_COUNT,
  DEFAULT_TIMEOUT_S,
  MAX_COUNT,
  MAX_TIMEOUT_S,
  type WebSearchRequest,
  type WebSearchResult,
  type WebSearchMode,
  type WebSearchService,
} from './types.ts';
import { hostAllowed, isWebUrl, normaliseUrl, siteHost, siteQueries } from './urls.ts';

/** Default User-Agent: names the product; operators set CRAWLER_USER_AGENT with their own contact URL. */
export const DEFAULT_USER_AGENT =
  'EnterpriseSearchCrawler/0.1 (+https://example.invalid/crawler-contact; set CRAWLER_USER_AGENT)';

/** Time kept back from the deadline to assemble and send the answer. */
const ANSWER_RESERVE_MS = 30;

export interface WebSearchDeps {
  config: Config['webSearch'];
  log: Logger;
  /** Address policy of the crawler; default from `config.allowPrivateAddresses`. */
  policy?: AddressPolicy;
  /** How crawled HTML/XHTML and PDF pages are read; default the extractors' shared worker pool. */
  extractors?: PageExtractors;
  /** Told of each failed provider call (metrics). */
  onProviderError?: (provider: string, code: ProviderError['code']) => void;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.floor(n)));

/** Interleave lists by rank (first of each, then second of each, ...). */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}

/** Keep the first of each normalised http(s) URL among allowed hosts, at most `count`. */
function select<T extends { url: string }>(items: T[], hosts: string[], count: number): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    if (out.length >= count) break;
    if (!isWebUrl(item.url) || !hostAllowed(item.url, hosts)) continue;
    const key = normaliseUrl(item.url);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

/** The modes whose provider is configured: `search` and `context` need a Brave key, `engine2` SearXNG. */
export function configuredModes(config: Config['webSearch']): WebSearchMode[] {
  return [
    ...(config.braveApiKey ? (['search', 'context'] as const) : []),
    ...(config.searxngBaseUrl ? (['engine2'] as const) : []),
  ];
}

export function createWebSearchService(deps: WebSearchDeps): WebSearchService {
  const { config, log } = deps;
  const policy = deps.policy ?? createAddressPolicy({ allowPrivate: config.allowPrivateAddresses });
  const brave = config.braveApiKey
    ? createBraveProvider({ apiKey: config.braveApiKey, baseUrl: config.braveBaseUrl })
    : undefined;
  const searxng = config.searxngBaseUrl ? createSearxngProvider({ baseUrl: config.searxngBaseUrl }) : undefined;
  const extractors = deps.extractors ?? poolPageExtractors();

  /** Run one provider call per query; at least one must succeed. */
  async function perQuery<T>(
    queries: string[],
    name: string,
    timeoutS: number,
    call: (q: string) => Promise<T[]>,
  ): Promise<T[][]> {
    const settled = await Promise.allSettled(queries.map(call));
    const lists = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    for (const f of failures) if (f instanceof ProviderError) deps.onProviderError?.(name, f.code);
    for (const f of failures) if (!(f instanceof ProviderError)) throw f;
    if (lists.length === 0) {
      const first = failures[0] as ProviderError;
      const reason = first.code === 'TIMEOUT' ? `${name} did not answer within ${timeoutS} s` : first.message;
      throw new ServiceError('BAD_GATEWAY', `Web search provider failed: ${reason}`);
    }
    if (failures.length > 0)
      log.warn('web search: some queries failed', {
        provider: name,
        failed: failures.length,
        reason: (failures[0] as Error).message,
      });
    return lists;
  }

  return {
    async search(req: WebSearchRequest, external?: AbortSignal): Promise<WebSearchResult[]> {
      const mode = req.mode ?? config.defaultMode ?? 'search';
      const count = clamp(req.count ?? DEFAULT_COUNT, 1, MAX_COUNT);
      const timeoutS = clamp(req.timeout ?? DEFAULT_TIMEOUT_S, 1, MAX_TIMEOUT_S);
      const deep = req.deepSearch === true;
      const queries = req.queries.map((q) => q.trim()).filter(Boolean);
      if (queries.length === 0) return [];
      const hosts = [...new Set((req.sites ?? []).map(siteHost).filter((h): h is string => h !== null))];
      const deadlineAt = Date.now() + timeoutS * 1000 - ANSWER_RESERVE_MS;
      const scope = abortScope([external], Math.max(1, deadlineAt - Date.now()));
      const signal = scope.signal;
      try {
        if (mode === 'context') {
          if (!brave)
            throw new ServiceError(
              'UNAVAILABLE',
              'Web search mode context is not available: BRAVE_API_KEY is not configured',
            );
          const contextProvider: ContextProvider = brave;
          const sent = queries.flatMap((q) => siteQueries(q, hosts, contextProvider.queryLimits));
          const lists = await perQuery(sent, contextProvider.name, timeoutS, (q) =>
            contextProvider.context({ query: q, count: deep ? 50 : 20, maxTokens: deep ? 16384 : 8192 }, signal),
          );
          const sources = select(interleave(lists), hosts, count);
          if (sources.length === 0) return [];
          return [summaryResult(queries, sources), ...sources.slice(0, count - 1).map(sourceResult)];
        }
        const provider: WebSearchProvider | undefined = mode === 'search' ? brave : searxng;
        if (!provider) {
          const missing = mode === 'search' ? 'BRAVE_API_KEY is' : 'SEARXNG_BASE_URL is';
          throw new ServiceError('UNAVAILABLE', `Web search mode ${mode} is not available: ${missing} not configured`);
        }
        const sent = queries.flatMap((q) => siteQueries(q, hosts, provider.queryLimits));
        const lists = await perQuery(sent, provider.name, timeoutS, (q) =>
          provider.search({ query: q, count, extraSnippets: deep }, signal),
        );
        const hits: SearchHit[] = select(interleave(lists), hosts, count);
        if (mode === 'engine2' && !deep) return hits.map(snippetResult);
        return await crawlHits(
          hits,
          {
            userAgent: config.userAgent || DEFAULT_USER_AGENT,
            policy,
            maxBytes: config.crawlMaxBytes,
            maxRedirects: config.crawlMaxRedirects,
            concurrency: config.crawlConcurrency,
            pageTimeoutMs: deep ? timeoutS * 1000 : config.crawlPageTimeoutMs,
            maxChars: deep ? config.deepContentChars : config.contentChars,
            extractors,
            log,
          },
          deadlineAt,
          signal,
        );
      } finally {
        scope.dispose();
      }
    },
  };
}
