/**
 * The machine-readable description of the search interface (OpenAPI 3.1,
 * version v0.1.46), generated from the valibot schemas the server uses: the
 * query parameters from SearchQuerySchema (schemas.ts, the request validator),
 * the response from SearchResponseSchema, whose record schema lists exactly
 * SEARCH_RESULT_FIELDS (result.ts), and the 422 body from
 * ValidationErrorResponseSchema. The document is built once per process.
 */
import * as v from 'valibot';
import { isOptional, toJsonSchema, type JsonSchema } from './json-schema.ts';
import { SearchQuerySchema } from './schemas.ts';
import { RELATED_DOC_FIELDS, SEARCH_RESULT_FIELDS } from './result.ts';

export const API_VERSION = 'v0.1.46';
export const SEARCH_PATH = '/api/beta/search';

const text = (description: string) => v.pipe(v.string(), v.description(description));

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
  similar_docs: v.pipe(
    v.array(RelatedDocSchema),
    v.description('Up to 5 visible documents most similar by content (near-duplicates left out).'),
  ),
  duplicates: v.pipe(
    v.array(RelatedDocSchema),
    v.description('Up to 10 visible near-duplicates (same content elsewhere), folded into this result.'),
  ),
  same_thread_docs: v.pipe(
    v.array(RelatedDocSchema),
    v.description('Up to 5 other visible documents of the same thread (e-mail conversation, message thread).'),
  ),
});

export const SearchResponseSchema = v.strictObject({ results: v.array(SearchResultSchema) });

export const ValidationErrorSchema = v.object({
  loc: v.array(v.union([v.string(), v.number()])),
  msg: v.string(),
  type: v.string(),
  input: v.optional(v.unknown()),
  ctx: v.optional(v.record(v.string(), v.unknown())),
});
export const ValidationErrorResponseSchema = v.strictObject({ detail: v.array(ValidationErrorSchema) });

/** The query parameters, in declaration order, from the validator's own schema. */
export function searchParameters(): JsonSchema[] {
  return Object.entries(SearchQuerySchema.entries).map(([name, schema]) => {
    const json = toJsonSchema(schema);
    const { description, ...rest } = json;
    return { name, in: 'query', required: !isOptional(schema), ...(description ? { description } : {}), schema: rest };
  });
}

function buildDocument(): JsonSchema {
  const detail = {
    description: 'Validation error',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
  };
  const message = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Enterprise Search',
      version: API_VERSION,
      description: 'Full-text search over the documents the signed-in person may see.',
    },
    paths: {
      [SEARCH_PATH]: {
        get: {
          operationId: 'full_text_search',
          summary: 'Full Text Search',
          security: [{ bearer: [] }],
          parameters: searchParameters(),
          responses: {
            '200': {
              description: 'Results',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/SearchResponse' } } },
            },
            '401': {
              description: 'Missing, invalid or expired credential',
              content: { 'application/json': { schema: message } },
            },
            '403': { description: 'Not a personal account key', content: { 'application/json': { schema: message } } },
            '422': detail,
          },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        RelatedDocument: toJsonSchema(RelatedDocSchema),
        SearchResult: { ...toJsonSchema(SearchResultSchema), properties: recordProperties() },
        SearchResponse: {
          type: 'object',
          properties: { results: { type: 'array', items: { $ref: '#/components/schemas/SearchResult' } } },
          required: ['results'],
          additionalProperties: false,
        },
        ValidationError: toJsonSchema(ValidationErrorSchema),
        HTTPValidationError: {
          type: 'object',
          properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } },
          required: ['detail'],
        },
      },
    },
  };
}

/** Record properties with related lists pointing at the RelatedDocument component. */
function recordProperties(): Record<string, JsonSchema> {
  const props = (toJsonSchema(SearchResultSchema).properties ?? {}) as Record<string, JsonSchema>;
  for (const name of ['similar_docs', 'duplicates', 'same_thread_docs']) {
    props[name] = { ...props[name], items: { $ref: '#/components/schemas/RelatedDocument' } };
  }
  return props;
}

let cached: JsonSchema | null = null;
export function openApiDocument(): JsonSchema {
  return (cached ??= buildDocument());
}

// The documented record and the built record must list the same fields.
const documented = Object.keys(SearchResultSchema.entries).join(',');
if (
  documented !== SEARCH_RESULT_FIELDS.join(',') ||
  Object.keys(RelatedDocSchema.entries).join(',') !== RELATED_DOC_FIELDS.join(',')
) {
  throw new Error('openapi.ts: SearchResultSchema drifted from SEARCH_RESULT_FIELDS');
}
