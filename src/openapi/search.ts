/**
 * OpenAPI operations of search and web search: GET /api/beta/search (query
 * parameters from SearchQuerySchema, the request validator; the result record
 * lists exactly SEARCH_RESULT_FIELDS of result.ts, checked at load) and POST
 * /api/beta/web_search (body WebSearchBody). The response schemas here are
 * the records the server answers, written as valibot schemas.
 */
import * as v from 'valibot';
import { RELATED_DOC_FIELDS, SEARCH_RESULT_FIELDS } from '../search/result.ts';
import { SearchQuerySchema } from '../search/schemas.ts';
import { WebSearchBody } from '../websearch/schemas.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

/** The version of the search interface (spec, Versioning). */
export const API_VERSION = 'v0.1.46';
export const SEARCH_PATH = '/api/beta/search';

const text = (description: string) => v.pipe(v.string(), v.description(description));
const related = (description: string) => v.pipe(v.array(RelatedDocSchema), v.description(description));

export const RelatedDocSchema = v.strictObject({
  id: text('Result id of the related document (`<datasource>:<document id>`).'),
  title: v.string(),
  path_preview: text('URL that opens the document.'),
  data_source: text('Datasource name.'),
});

export const SearchResultSchema = v.strictObject({
  id: text('`<datasource>:<document id>`: unique across datasources and stable across re-indexing.'),
  title: v.string(),
  path: text('Breadcrumb string for display.'),
  path_preview: text('URL that opens the document.'),
  parent_path: text(
    "The breadcrumb `path` without its last segment, in the same separator style ('' for a single segment).",
  ),
  data_source: text('Datasource name.'),
  data_source_sub: text("`{datasource}__{sub_key}`, or '' when the document has no (longer existing) sub."),
  data_source_sub_sub: text("`{datasource}__{sub_key}__{child_key}`, or ''."),
  file_type: text('Search file type (mapped from document_type and the media type).'),
  document_type: text("The document's own file_type as pushed."),
  last_modified: text("ISO 8601 timestamp as pushed, or ''."),
  file_size: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.description('Bytes of the pushed content (decoded binary or UTF-8 text).'),
  ),
  author: v.string(),
  highlights: v.pipe(
    v.array(v.string()),
    v.description('Best passages as HTML: matches in <em>, all other text escaped.'),
  ),
  summary: text('First meaningful sentences of the body (plain text).'),
  suffix: text("Computed file suffix (pdf, docx, ...), or ''."),
  similar_docs: related('Up to 5 visible documents most similar by content (near-duplicates left out).'),
  duplicates: related('Up to 10 visible near-duplicates (same content elsewhere), folded into this result.'),
  same_thread_docs: related(
    'Up to 5 other visible documents of the same thread (e-mail conversation, message thread).',
  ),
});

export const SearchResponseSchema = v.strictObject({ results: v.array(SearchResultSchema) });

export const WebSearchResultSchema = v.object({
  url: v.string(),
  metadata: v.object({ title: v.string(), description: v.string() }),
  content: text('Snippet, or the page content with `deep_search` or mode `context`.'),
});

export function searchOperations(r: SchemaRegistry): Operation[] {
  r.named('RelatedDocument', RelatedDocSchema);
  r.named('SearchResult', SearchResultSchema);
  r.named('SearchResponse', SearchResponseSchema);
  r.named('WebSearchResult', WebSearchResultSchema);
  return [
    {
      method: 'get',
      path: SEARCH_PATH,
      id: 'full_text_search',
      summary: 'Full Text Search',
      description: 'Full-text search over the documents the caller may see, best first.',
      tag: 'Search',
      access: 'personal',
      query: SearchQuerySchema,
      ok: { description: 'Results', schema: SearchResponseSchema },
    },
    {
      method: 'post',
      path: '/api/beta/web_search',
      id: 'web_search',
      summary: 'Web search',
      description: 'Searches the web through the configured provider (mode `search`, `context` or `engine2`).',
      tag: 'Search',
      access: 'personal',
      body: WebSearchBody,
      errors: [502, 503],
      ok: { description: 'Web search results, duplicates removed', schema: v.array(WebSearchResultSchema) },
    },
  ];
}

// The documented record and the built record must list the same fields.
if (
  Object.keys(SearchResultSchema.entries).join(',') !== SEARCH_RESULT_FIELDS.join(',') ||
  Object.keys(RelatedDocSchema.entries).join(',') !== RELATED_DOC_FIELDS.join(',')
) {
  throw new Error('openapi/search.ts: SearchResultSchema drifted from SEARCH_RESULT_FIELDS');
}
