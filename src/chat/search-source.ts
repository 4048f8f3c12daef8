/**
 * The serviceSearch tool's search: `searchWith` (src/search/service.ts)
 * over the documents index, for the key's account email, turned into
 * passages for the model (highlights and summary as plain text: `<em>` marks
 * removed, HTML entities decoded). `services.chatSearch` overrides it (tests,
 * benchmarks); without a documents index there is no internal search.
 */
import { RequestValidationError } from '../errors.ts';
import { searchWith } from '../search/service.ts';
import type { Services } from '../services.ts';
import type { ChatSearchFn, SearchPassage } from './tools.ts';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** HTML fragment of a highlight to plain text. */
export function plainText(html: string): string {
  return html.replace(/<\/?em>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

export function chatSearchFor(services: Services): ChatSearchFn | undefined {
  if (services.chatSearch) return services.chatSearch;
  const documents = services.documents;
  if (!documents) return undefined;
  const deps = { state: services.state, index: documents.index, now: services.now, runner: services.searchRunner, hidden: (name: string) => documents.dropPending(name) };
  return async (email, params) => {
    let body;
    try {
      body = await searchWith(deps, email, { query: params.query, count: params.count, dataSources: params.dataSources, language: params.language });
    } catch (err) {
      if (err instanceof RequestValidationError) return [];
      throw err;
    }
    return body.results.map((r): SearchPassage => {
      const parts = r.highlights.map(plainText);
      if (r.summary && !parts.some((p) => p.includes(r.summary))) parts.push(r.summary);
      return { id: r.id, title: r.title, path_preview: r.path_preview, datasource: r.data_source, text: parts.join('\n').slice(0, 4000) };
    });
  };
}
