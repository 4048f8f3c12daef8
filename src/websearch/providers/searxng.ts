/**
 * SearXNG adapter (mode `engine2`): `GET {base}/search?q=...&format=json`,
 * hits in `results[]` with `url`, `title`, `content`. The instance must have
 * the `json` format enabled in its settings (`search.formats`); otherwise it
 * answers 403, reported with that hint.
 */
import { getJson, isRecord, plainText } from './http-json.ts';
import { ProviderError, type SearchHit, type SearchQuery, type WebSearchProvider } from './types.ts';

export function createSearxngProvider(options: { baseUrl: string }): WebSearchProvider {
  const name = 'SearXNG';
  return {
    name,
    async search(q: SearchQuery, signal: AbortSignal): Promise<SearchHit[]> {
      const url = new URL('search', options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
      url.searchParams.set('q', q.query);
      url.searchParams.set('format', 'json');
      let body: unknown;
      try {
        body = await getJson(url, {}, name, signal);
      } catch (err) {
        if (err instanceof ProviderError && /HTTP 403/.test(err.message)) {
          throw new ProviderError('HTTP_STATUS', `${err.message} (is the json format enabled in the SearXNG settings?)`);
        }
        throw err;
      }
      if (!isRecord(body) || !Array.isArray(body.results)) throw new ProviderError('BAD_RESPONSE', `${name} answered without results`);
      return body.results
        .filter(isRecord)
        .filter((r) => typeof r.url === 'string')
        .slice(0, q.count)
        .map((r) => ({ url: r.url as string, title: plainText(r.title), description: plainText(r.content), extraSnippets: [] }));
    },
  };
}
