/**
 * The serviceSearch tool's search: `searchWith` (src/search/service.ts)
 * over the documents index, for the key's account email, under the same budgets,
 * account limit and lanes as GET /api/beta/search (a refused query finds nothing), turned into
 * passages for the model (highlights and summary as plain text: `<em>` marks
 * removed, HTML entities decoded). `services.chatSearch` overrides it (tests,
 * benchmarks); without a documents index there is no internal search.
 *
 * Data source names that are neither a category nor an existing datasource
 * (an agent scope naming a deleted datasource, a name the model made up) are
 * left out instead of failing the whole search; when none is left, nothing
 * is found (a restriction never widens to every datasource).
 */
import { RequestValidationError } from '../errors.ts';
import { indexingState } from '../controlplane/datasources.ts';
import { DATA_SOURCE_CATEGORIES } from '../search/schemas.ts';
import { searchWith, type PlanRunner } from '../search/service.ts';
import type { SearchLimits } from '../search/limits.ts';
import type { DocumentService } from '../documents/service.ts';
import type { StateStore } from '../state/store.ts';
import type { ChatSearchFn, SearchPassage } from './tools.ts';

/** What the chat's search is built from (a subset of the services). */
export interface ChatSearchDeps {
  state: StateStore;
  now: () => number;
  documents?: Pick<DocumentService, 'index' | 'dropPending'>;
  searchRunner?: PlanRunner;
  /** The search budgets (the configuration's), as for GET /api/beta/search. */
  config: { search: { limits: SearchLimits } };
  /** Replaces the search over `documents` (tests, benchmarks). */
  chatSearch?: ChatSearchFn;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** HTML fragment of a highlight to plain text. */
export function plainText(html: string): string {
  return html.replace(/<\/?em>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

export function chatSearchFor(services: ChatSearchDeps): ChatSearchFn | undefined {
  if (services.chatSearch) return services.chatSearch;
  const documents = services.documents;
  if (!documents) return undefined;
  const deps = {
    state: services.state,
    index: documents.index,
    now: services.now,
    runner: services.searchRunner,
    hidden: (name: string) => documents.dropPending(name),
    limits: services.config.search.limits,
  };
  return async (email, params, _signal, log) => {
    const dataSources = knownDataSources(services, params.dataSources);
    if (dataSources?.length === 0) return [];
    let body;
    try {
      body = await searchWith(
        deps,
        email,
        { query: params.query, count: params.count, dataSources, language: params.language },
        log,
      );
    } catch (err) {
      if (err instanceof RequestValidationError) return [];
      throw err;
    }
    return body.results.map((r): SearchPassage => {
      const parts = r.highlights.map(plainText);
      if (r.summary && !parts.some((p) => p.includes(r.summary))) parts.push(r.summary);
      return {
        id: r.id,
        title: r.title,
        path_preview: r.path_preview,
        datasource: r.data_source,
        text: parts.join('\n').slice(0, 4000),
      };
    });
  };
}

const CATEGORIES: ReadonlySet<string> = new Set(DATA_SOURCE_CATEGORIES);

/** The requested names that are a category or an existing datasource; undefined: no restriction. */
function knownDataSources(services: ChatSearchDeps, names: string[] | undefined): string[] | undefined {
  if (names === undefined || names.length === 0) return undefined;
  const datasources = indexingState(services).datasources;
  return names.filter((n) => CATEGORIES.has(n) || datasources.has(n));
}
