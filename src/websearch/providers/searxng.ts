/**
 * SearXNG adapter (mode `engine2`): `GET {base}/search?q=...&format=json&pageno=N`,
 * hits in `results[]` with `url`, `title`, `content`. One call answers one
 * result page (its size depends on the instance's engines), so a count beyond
 * the first page reads further pages. The instance must have the `json` format
 * enabled in its settings (`search.formats`); otherwise it answers 403,
 * reported with that hint.
 */
import { getJson, isRecord, plainText } from './http-json.ts';
import { ProviderError, type SearchHit, type SearchQuery, type WebSearchProvider } from './types.ts';

/** Result pages read for one query at most. */
const MAX_PAGES = 5;
/** A page with fewer results than this is taken as the last one (SearXNG pages hold about 10-20). */
const SHORT_PAGE = 5;

export function createSearxngProvider(options: { baseUrl: string }): WebSearchProvider {
  const name = 'SearXNG';

  async function page(q: SearchQuery, pageno: number, signal: AbortSignal): Promise<SearchHit[]> {
    const url = new URL('search', options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    url.searchParams.set('q', q.query);
    url.searchParams.set('format', 'json');
    if (pageno > 1) url.searchParams.set('pageno', String(pageno));
    let body: unknown;
    try {
      body = await getJson(url, {}, name, signal);
    } catch (err) {
      if (err instanceof ProviderError && /HTTP 403/.test(err.message)) {
        throw new ProviderError('HTTP_STATUS', `${err.message} (is the json format enabled in the SearXNG settings?)`);
      }
      throw err;
    }
    if (!isRecord(body) || !Array.isArray(body.results))
      throw new ProviderError('BAD_RESPONSE', `${name} answered without results`);
    return body.results
      .filter(isRecord)
      .filter((r) => typeof r.url === 'string')
      .map((r) => ({
        url: r.url as string,
        title: plainText(r.title),
        description: plainText(r.content),
        extraSnippets: [],
      }));
  }

  return {
    name,
    /**
     * Hits in rank order, at most `q.count`: page 1, then further pages one after the other while
     * they are not short and bring new URLs. The first page's failure is the search's failure; a
     * later one ends the list.
     */
    async search(q: SearchQuery, signal: AbortSignal): Promise<SearchHit[]> {
      const hits = await page(q, 1, signal);
      const seen = new Set(hits.map((h) => h.url));
      let last = hits.length;
      for (
        let pageno = 2;
        pageno <= MAX_PAGES && hits.length < q.count && last >= SHORT_PAGE && !signal.aborted;
        pageno++
      ) {
        let more: SearchHit[];
        try {
          const got = await page(q, pageno, signal);
          last = got.length;
          more = got.filter((h) => !seen.has(h.url));
        } catch {
          break;
        }
        if (more.length === 0) break;
        for (const h of more) seen.add(h.url);
        hits.push(...more);
      }
      return hits.slice(0, q.count);
    },
  };
}
