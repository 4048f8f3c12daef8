/**
 * Brave Search API adapter: web search (`GET {base}/res/v1/web/search`, hits
 * in `web.results[]` with `url`, `title`, `description`, `extra_snippets`;
 * 20 per call, further pages by `offset`) and
 * LLM context (`GET {base}/res/v1/llm/context`, grounded snippets in
 * `grounding.generic[]` with `url`, `title`, `snippets`, site names in
 * `sources[url].hostname`). Authenticated with the X-Subscription-Token header.
 */
import { getJson, isRecord, plainText } from './http-json.ts';
import {
  type ContextProvider,
  type ContextQuery,
  type ContextSource,
  ProviderError,
  type SearchHit,
  type SearchQuery,
  type WebSearchProvider,
} from './types.ts';

export interface BraveOptions {
  apiKey: string;
  baseUrl: string;
}

/** Brave accepts at most 20 web results and 50 context results per call, and web result pages 0-9. */
const MAX_WEB_COUNT = 20;
/** Brave refuses longer `q` values (HTTP 422). */
const QUERY_LIMITS = { chars: 400, words: 50 };
/** Web result pages read for one query: enough for the endpoint's cap of 50 results. */
const MAX_WEB_PAGES = 3;
const MAX_CONTEXT_COUNT = 50;

function endpoint(base: string, path: string, params: Record<string, string>): URL {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

export function createBraveProvider(options: BraveOptions): WebSearchProvider & ContextProvider {
  const name = 'Brave Search';
  const headers = { 'x-subscription-token': options.apiKey };

  /** One page of web results: `count` hits from page `offset`. */
  async function webPage(q: SearchQuery, offset: number, count: number, signal: AbortSignal): Promise<SearchHit[]> {
    const params: Record<string, string> = { q: q.query, count: String(count) };
    if (offset > 0) params.offset = String(offset);
    if (q.extraSnippets) params.extra_snippets = 'true';
    const body = await getJson(endpoint(options.baseUrl, 'res/v1/web/search', params), headers, name, signal);
    if (!isRecord(body)) throw new ProviderError('BAD_RESPONSE', `${name} answered with an unexpected JSON shape`);
    const web = body.web;
    if (web === undefined) return []; // no web results for this query
    if (!isRecord(web) || !Array.isArray(web.results)) {
      throw new ProviderError('BAD_RESPONSE', `${name} answered without web.results`);
    }
    return web.results
      .filter(isRecord)
      .filter((r) => typeof r.url === 'string')
      .map((r) => ({
        url: r.url as string,
        title: plainText(r.title),
        description: plainText(r.description),
        extraSnippets: Array.isArray(r.extra_snippets) ? r.extra_snippets.map(plainText).filter(Boolean) : [],
      }));
  }

  return {
    name,
    queryLimits: QUERY_LIMITS,
    /**
     * Hits in rank order, at most `q.count`: Brave answers at most 20 per call, so larger counts
     * read further result pages (`offset` counts pages) in parallel. The first page's failure is
     * the search's failure; a later page that fails or comes back empty ends the list there.
     */
    async search(q: SearchQuery, signal: AbortSignal): Promise<SearchHit[]> {
      const want = Math.max(1, q.count);
      const perPage = Math.min(MAX_WEB_COUNT, want);
      const pages = Math.min(MAX_WEB_PAGES, Math.ceil(want / perPage));
      const settled = await Promise.allSettled(
        Array.from({ length: pages }, (_, offset) => webPage(q, offset, perPage, signal)),
      );
      const hits: SearchHit[] = [];
      for (const [i, page] of settled.entries()) {
        if (page.status === 'rejected') {
          if (i === 0) throw page.reason;
          break;
        }
        hits.push(...page.value);
        if (page.value.length < perPage) break;
      }
      return hits.slice(0, want);
    },
    async context(q: ContextQuery, signal: AbortSignal): Promise<ContextSource[]> {
      const params = {
        q: q.query,
        count: String(Math.min(MAX_CONTEXT_COUNT, Math.max(1, q.count))),
        maximum_number_of_tokens: String(q.maxTokens),
      };
      const body = await getJson(endpoint(options.baseUrl, 'res/v1/llm/context', params), headers, name, signal);
      if (!isRecord(body) || !isRecord(body.grounding)) {
        throw new ProviderError('BAD_RESPONSE', `${name} LLM context answered without grounding`);
      }
      const generic = body.grounding.generic ?? [];
      if (!Array.isArray(generic))
        throw new ProviderError('BAD_RESPONSE', `${name} LLM context answered without grounding.generic`);
      const sources = isRecord(body.sources) ? body.sources : {};
      return generic
        .filter(isRecord)
        .filter((g) => typeof g.url === 'string')
        .map((g) => {
          const url = g.url as string;
          const meta = isRecord(sources[url]) ? (sources[url] as Record<string, unknown>) : {};
          let hostname = plainText(meta.hostname);
          if (!hostname) {
            try {
              hostname = new URL(url).hostname;
            } catch {
              hostname = '';
            }
          }
          return {
            url,
            title: plainText(g.title) || plainText(meta.title),
            hostname,
            snippets: Array.isArray(g.snippets)
              ? g.snippets
                  .filter((s): s is string => typeof s === 'string')
                  .map((s) => s.trim())
                  .filter(Boolean)
              : [],
          };
        });
    },
  };
}
