/**
 * The two tools a completion may offer the model, as function specs, and
 * their execution:
 * - serviceSearch: a permission-filtered search of the indexed documents for
 *   the key's account email (through `ChatSearchFn`), limited to the agent's
 *   datasource scope;
 * - webSearch: the web search service with the completion's web-search mode;
 *   without a configured provider the result says so and the model answers
 *   without it.
 * Results become numbered sources (`SourceRegistry`); the tool message the
 * model reads lists them as `[key] title (location)` followed by their text
 * (web texts without bracketed numbers of their own, which would read as keys).
 */
import { ServiceError } from '../errors.ts';
import type { WebSearchMode, WebSearchService } from '../websearch/types.ts';
import type { Logger } from '../log.ts';
import { withoutMarkers } from './citations.ts';
import { ChatError } from './errors.ts';
import type { Language, Source, ToolCall, ToolSpec } from './types.ts';

export const TOOL_NAMES = ['serviceSearch', 'webSearch'] as const;
/** Tool calls of one round that are run; the model is told that further calls were not. */
export const MAX_CALLS_PER_ROUND = 5;
export type ToolName = (typeof TOOL_NAMES)[number];

export const DATA_SOURCES = [
  'wikitool',
  'issuetool',
  'codehost',
  'intranet_online',
  'mailsuite',
  'fileshares',
  'other',
] as const;

/** One search hit as the chat needs it. */
export interface SearchPassage {
  id: string;
  title: string;
  path_preview: string;
  url?: string;
  datasource: string;
  /** Highlights and summary as plain text. */
  text: string;
}

export interface ChatSearchParams {
  query: string;
  count: number;
  /** Restrict to these datasources; undefined: all the account may see. */
  dataSources?: string[];
  language: Language;
}

/** Permission-filtered search for one account email. */
export type ChatSearchFn = (
  email: string,
  params: ChatSearchParams,
  signal?: AbortSignal,
  /** The request's logger (budget cuts and refusals are logged on it). */
  log?: Logger,
) => Promise<SearchPassage[]>;

export const TOOL_SPECS: Record<ToolName, ToolSpec> = {
  serviceSearch: {
    name: 'serviceSearch',
    description:
      'Search the internal documents (wiki, issues, code, intranet, mail, file shares) the user may see. Returns numbered sources; cite them as [n].',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search words (keywords work best).' },
        data_sources: {
          type: 'array',
          items: { type: 'string' },
          description: `Optional: only these sources (${DATA_SOURCES.join(', ')} or a datasource name).`,
        },
      },
      required: ['query'],
    },
  },
  webSearch: {
    name: 'webSearch',
    description: 'Search the public web. Returns numbered sources with page content; cite them as [n].',
    parameters: {
      type: 'object',
      properties: {
        queries: { type: 'array', items: { type: 'string' }, description: 'One to three search queries.' },
      },
      required: ['queries'],
    },
  },
};

/** Sources of one completion, numbered in order of retrieval; the same document keeps its number. */
export class SourceRegistry {
  private readonly list: Source[] = [];
  private readonly byId = new Map<string, Source>();

  add(s: Omit<Source, 'key'>): Source {
    const known = this.byId.get(`${s.datasource}\u0000${s.id}`);
    if (known) return known;
    const source: Source = { ...s, key: this.list.length + 1 };
    this.list.push(source);
    this.byId.set(`${s.datasource}\u0000${s.id}`, source);
    return source;
  }
  get(key: number): Source | undefined {
    return this.list[key - 1];
  }
  all(): readonly Source[] {
    return this.list;
  }
}

export interface ToolDeps {
  email: string;
  search?: ChatSearchFn;
  webSearch?: WebSearchService;
  webSearchMode?: WebSearchMode;
  /** Agent datasource scope; undefined: no restriction. */
  scope?: string[];
  language: Language;
  searchResults: number;
  registry: SourceRegistry;
  signal: AbortSignal;
  log?: Logger;
}

/** The tool message for a call beyond MAX_CALLS_PER_ROUND (it is not run). */
export async function notRun(): Promise<string> {
  return `Error: not run; at most ${MAX_CALLS_PER_ROUND} tool calls are run at once. Use the results you have, or call again with fewer calls.`;
}

/** The tool message for a call of a tool that was not offered in this round (it is not run). */
export async function notOffered(name: string, offered: readonly ToolSpec[]): Promise<string> {
  return `Error: ${JSON.stringify(name.slice(0, 100)).slice(1, -1)} is not available; use ${offered.map((t) => t.name).join(' or ')}, or answer without it.`;
}

/** Execute one call; returns the tool message content. Bad arguments become a message to the model, not an error. */
export async function runTool(call: ToolCall, deps: ToolDeps): Promise<string> {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    args = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return `Error: the arguments of ${call.name} are not valid JSON.`;
  }
  if (call.name === 'serviceSearch') return serviceSearch(args, deps);
  if (call.name === 'webSearch') return webSearch(args, deps);
  return `Error: there is no tool named ${JSON.stringify(call.name)}.`;
}

async function serviceSearch(args: Record<string, unknown>, deps: ToolDeps): Promise<string> {
  const query = typeof args.query === 'string' ? args.query.trim().slice(0, 500) : '';
  if (query === '') return 'Error: serviceSearch needs a non-empty "query".';
  if (!deps.search) return 'Internal search is not available on this server.';
  let dataSources = Array.isArray(args.data_sources)
    ? args.data_sources.filter((d): d is string => typeof d === 'string')
    : undefined;
  if (dataSources?.length === 0) dataSources = undefined;
  if (deps.scope) {
    dataSources = dataSources ? dataSources.filter((d) => deps.scope!.includes(d)) : [...deps.scope];
    if (dataSources.length === 0) return "No results: the requested data sources are outside this agent's scope.";
  }
  const hits = await deps.search(
    deps.email,
    { query, count: deps.searchResults, dataSources, language: deps.language },
    deps.signal,
    deps.log,
  );
  if (hits.length === 0) return `No internal documents match "${query}".`;
  return hits
    .map((h) => {
      const s = deps.registry.add({
        id: h.id,
        title: h.title,
        path_preview: h.path_preview,
        url: h.url,
        datasource: h.datasource,
        text: h.text,
      });
      return `[${s.key}] ${s.title} (${s.path_preview || s.datasource})\n${s.text}`;
    })
    .join('\n\n');
}

const WEB_TEXT_CHARS = 3000;

async function webSearch(args: Record<string, unknown>, deps: ToolDeps): Promise<string> {
  const raw = Array.isArray(args.queries) ? args.queries : typeof args.query === 'string' ? [args.query] : [];
  const queries = raw
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    .slice(0, 3)
    .map((q) => q.slice(0, 400));
  if (queries.length === 0) return 'Error: webSearch needs "queries" (a list of search queries).';
  if (!deps.webSearch) return 'Web search is not configured on this server; answer without it.';
  try {
    const results = await deps.webSearch.search(
      { queries, count: deps.searchResults, mode: deps.webSearchMode },
      deps.signal,
    );
    if (results.length === 0) return `No web results for ${queries.map((q) => JSON.stringify(q)).join(', ')}.`;
    return results
      .map((r) => {
        // Bracketed numbers of the page (footnotes, a context summary's own source list) would read as our keys.
        const text = withoutMarkers(r.content.slice(0, WEB_TEXT_CHARS));
        const s = deps.registry.add({
          id: r.url,
          title: withoutMarkers(r.metadata.title) || r.url,
          url: r.url,
          datasource: 'web',
          text,
        });
        return `[${s.key}] ${s.title} (${r.url})\n${s.text}`;
      })
      .join('\n\n');
  } catch (err) {
    if (deps.signal.aborted) throw err;
    if (err instanceof ServiceError && err.status === 503)
      return `Web search is not configured on this server (${err.message}); answer without it.`;
    if (err instanceof ServiceError || err instanceof ChatError)
      return `Web search failed (${err.message}); answer without it.`;
    throw err;
  }
}
