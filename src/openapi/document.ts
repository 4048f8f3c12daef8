/**
 * The OpenAPI 3.1 document of the whole HTTP API, assembled from one module
 * per API area (search, chat, indexing, control plane, admin, personal data)
 * whose operations name the valibot schemas the handlers validate with. It
 * adds what every area shares: `info` (the search interface's version,
 * spec: Versioning), `servers`, the security schemes (bearer keys, the browser
 * session cookie and its X-CSRF-Token header), the error envelopes (README,
 * Errors) and the components. Built once per process.
 */
import * as v from 'valibot';
import { accountOperations } from './account.ts';
import { adminAccountOperations } from './admin-accounts.ts';
import { adminConnectorOperations } from './admin-connectors.ts';
import { adminOperations } from './admin-ops.ts';
import { chatOperations } from './chat.ts';
import { controlPlaneOperations } from './controlplane.ts';
import { indexingOperations } from './indexing.ts';
import { principalOperations } from './principals.ts';
import { errorResponses, pathItems, type Operation } from './operations.ts';
import { SchemaRegistry, type JsonSchema } from './schema.ts';
import { API_VERSION, searchOperations } from './search.ts';

export const ValidationErrorSchema = v.object({
  loc: v.array(v.union([v.string(), v.number()])),
  msg: v.string(),
  type: v.pipe(v.string(), v.description('Pydantic v2 error type, e.g. `missing`, `extra_forbidden`.')),
  input: v.optional(v.unknown()),
  ctx: v.optional(v.record(v.string(), v.unknown())),
});
export const ValidationErrorResponseSchema = v.strictObject({ detail: v.array(ValidationErrorSchema) });
export const ErrorDetailSchema = v.object({ detail: v.string() });
export const SchemaErrorSchema = v.strictObject({
  status: v.literal('error'),
  details: v.object({
    error_code: v.pipe(v.string(), v.description('e.g. UNKNOWN_PROPERTY, INVALID_DATA_SOURCE_SUB (spec, Errors).')),
    message: v.string(),
  }),
});
export const ChatErrorSchema = v.object({
  error: v.object({
    message: v.string(),
    type: v.pipe(v.string(), v.description('invalid_request_error, authentication_error, permission_error, ...')),
    param: v.nullable(v.string()),
    code: v.nullable(v.string()),
  }),
  detail: v.pipe(v.unknown(), v.description("The service's own error body (a message, or the validation items).")),
});

/** The operations of every area, in the order of the document. */
function operations(r: SchemaRegistry): Operation[] {
  return [
    ...searchOperations(r),
    ...chatOperations(r),
    ...indexingOperations(r),
    ...controlPlaneOperations(r),
    ...principalOperations(r),
    ...adminAccountOperations(r),
    ...adminConnectorOperations(r),
    ...adminOperations(r),
    ...accountOperations(r),
  ];
}

/** The areas, in the order of the document. */
const TAGS: Record<string, string> = {
  Search: 'Full-text search over the documents the caller may see, and web search.',
  Chat: 'The chat-completion API (compatible with the widely used chat API) and file upload for chat.',
  'Indexing API: documents': 'Push, delete and inspect documents; upload sessions for full re-uploads.',
  'Indexing API: control plane': 'Datasources, subs, users, groups and memberships.',
  'Admin: accounts and keys': 'Accounts, roles, personal keys, service accounts, passwords, sign-in links, sessions.',
  'Admin: agents and connectors': 'Agents (chat presets) and connectors with their runs.',
  'Admin: operations': 'Audit log, search analytics, statistics and settings.',
  Conversations: 'Saved chat conversations of the signed-in person.',
  Analytics: 'Search analytics events and the search history of the signed-in person.',
  Service: 'Liveness, this document and its reference page.',
};

const bearer = (description: string) => ({ type: 'http', scheme: 'bearer', description });

function buildDocument(): JsonSchema {
  const r = new SchemaRegistry();
  r.named('ValidationError', ValidationErrorSchema);
  r.named('HTTPValidationError', ValidationErrorResponseSchema);
  r.named('ErrorDetail', ErrorDetailSchema);
  r.named('SchemaErrorEnvelope', SchemaErrorSchema);
  r.named('ChatError', ChatErrorSchema);
  const ops = operations(r);
  const paths = pathItems(r, ops);
  const unknown = ops.find((op) => !(op.tag in TAGS));
  if (unknown) throw new Error(`openapi: tag ${unknown.tag} has no description`);
  const tags = Object.entries(TAGS).map(([name, description]) => ({ name, description }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Enterprise Search',
      version: API_VERSION,
      description:
        'Full-text search, permission-aware AI chat, web search, the push Indexing API and the admin API of a self-hosted enterprise search service.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server (paths are relative to its base URL).' }],
    tags,
    paths,
    components: {
      securitySchemes: {
        masterKey: bearer('The master key (ADMIN_KEY): the admin API.'),
        personalKey: bearer(
          'A personal account key: search, chat, web search, files, conversations; the admin API with the administrator role.',
        ),
        serviceAccountKey: bearer('A service-account key (`svcsa_...`): the Indexing API.'),
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'es_session',
          description: 'The browser session of a signed-in account (set by the sign-in pages).',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description: "With the session cookie, a state-changing request also sends the session's CSRF token.",
        },
      },
      schemas: r.components(),
      responses: errorResponses(r),
    },
  };
}

let cached: JsonSchema | null = null;
/** The document (built on first use). */
export function openApiDocument(): JsonSchema {
  return (cached ??= buildDocument());
}
