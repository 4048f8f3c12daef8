/**
 * OpenAPI operations of the Indexing API's documents (prefix /api/indexing,
 * service-account keys; status and check-access also an administrator's
 * browser session): push (single or bulk; each document validated by
 * documentSchema, the pipeline's own validator), delete, status, check-access,
 * and the upload sessions (a full re-upload in pages; finishing deletes the
 * documents no page named). A single-form schema violation is 422 in the
 * error_code envelope (spec, Errors).
 */
import * as v from 'valibot';
import { CheckAccessQuerySchema, CheckAccessSchema, documentSchema, PushQuerySchema } from '../documents/schemas.ts';
import { StartBody } from '../uploads/sessions.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const BASE = '/api/indexing';
/** The documented default of INDEXING_API_MAX_BINARY_BYTES (the size rule is a custom check either way). */
const DEFAULT_MAX_BINARY_BYTES = 100_000_000;

const Outcome = v.picklist(['sent', 'already_indexed', 'skipped', 'failed']);
const PushResponseSchema = v.object({
  status: v.literal('ok'),
  datasource: v.optional(v.pipe(v.string(), v.description('Single form only.'))),
  documents_received: v.nullable(v.pipe(v.number(), v.integer(), v.description('null in the single form.'))),
  message: v.string(),
  results: v.array(v.object({ document_id: v.string(), outcome: Outcome, message: v.string() })),
  committed: v.optional(v.pipe(v.boolean(), v.description('With `wait`: every sent document committed in time.'))),
});

const DocumentStatusSchema = v.object({
  datasource: v.string(),
  document_id: v.string(),
  state: v.picklist(['queued', 'indexed', 'skipped', 'failed', 'deleted']),
  outcome: v.string(),
  message: v.string(),
  last_modified: v.nullable(v.string()),
  received_at: v.nullable(v.string()),
  committed_at: v.nullable(v.string()),
});

const AccessAnswerSchema = v.object({
  has_access: v.boolean(),
  datasource: v.string(),
  document_id: v.string(),
  user_email: v.string(),
  reason: v.string(),
  explanation: v.optional(
    v.pipe(
      v.object({
        registered: v.boolean(),
        granted_by: v.nullable(v.picklist(['anonymous', 'user', 'group'])),
        group_path: v.nullable(v.array(v.string())),
        document: v.object({ anonymous: v.boolean(), allowed_users: v.number(), allowed_groups: v.array(v.string()) }),
        user_groups: v.array(v.string()),
      }),
      v.description('With `explain=true`.'),
    ),
  ),
});

const UploadSessionSchema = v.object({
  upload_id: v.string(),
  datasource: v.string(),
  state: v.picklist(['open', 'finishing', 'finished', 'abandoned']),
  started_at: v.string(),
  updated_at: v.string(),
  pages: v.pipe(v.number(), v.integer()),
  documents_seen: v.pipe(v.number(), v.integer()),
  documents_deleted: v.optional(v.pipe(v.number(), v.integer())),
});

export function indexingOperations(r: SchemaRegistry): Operation[] {
  const document = r.named('Document', documentSchema(DEFAULT_MAX_BINARY_BYTES));
  r.named('PushResponse', PushResponseSchema);
  r.named('UploadSession', UploadSessionSchema);
  const pushBody = v.strictObject({ documents: v.union([document, v.array(document)]) });
  const idx = { tag: 'Indexing API: documents', access: 'service' } as const;
  const doc = { datasource: 'Datasource name.', document_id: 'Document id.' };
  const upload = { id: 'Upload session id.' };
  return [
    {
      ...idx,
      method: 'post',
      path: `${BASE}/documents`,
      id: 'push_documents',
      summary: 'Push documents',
      description:
        'One document or a list (at most 10,000), processed in order; in the bulk form a failing document becomes a `failed` result and the rest continue.',
      query: PushQuerySchema,
      body: pushBody,
      errors: [404, 503],
      schemaErrors: true,
      ok: { description: 'Per-document outcomes', schema: PushResponseSchema },
    },
    {
      ...idx,
      access: 'service-or-session',
      method: 'post',
      path: `${BASE}/documents/check-access`,
      id: 'check_access',
      summary: 'Check access',
      description: "Whether a user may see a committed document, resolving the user's transitive group memberships.",
      query: CheckAccessQuerySchema,
      body: CheckAccessSchema,
      errors: [404],
      ok: { description: 'The decision and its reason', schema: AccessAnswerSchema },
    },
    {
      ...idx,
      access: 'service-or-session',
      method: 'get',
      path: `${BASE}/documents/{datasource}/{document_id}`,
      id: 'document_status',
      summary: 'Document status',
      pathParams: doc,
      errors: [404],
      ok: { description: 'Where the document is in the pipeline', schema: DocumentStatusSchema },
    },
    {
      ...idx,
      method: 'delete',
      path: `${BASE}/documents/{datasource}/{document_id}`,
      id: 'delete_document',
      summary: 'Delete a document',
      description: 'Idempotent: 200 also when the document does not exist.',
      pathParams: doc,
      errors: [404],
      ok: {
        description: 'Delete issued',
        schema: v.object({
          status: v.literal('ok'),
          datasource: v.string(),
          document_id: v.string(),
          message: v.string(),
        }),
      },
    },
    {
      ...idx,
      method: 'post',
      path: `${BASE}/upload-sessions`,
      id: 'start_upload_session',
      summary: 'Start an upload session',
      body: StartBody,
      errors: [404, 409, 429],
      ok: { description: 'The open session', schema: UploadSessionSchema },
    },
    {
      ...idx,
      method: 'post',
      path: `${BASE}/upload-sessions/{id}/documents`,
      id: 'push_upload_page',
      summary: 'Push a page of an upload session',
      pathParams: upload,
      query: PushQuerySchema,
      body: pushBody,
      errors: [404, 409],
      schemaErrors: true,
      ok: {
        description: 'Per-document outcomes of the page',
        schema: v.intersect([PushResponseSchema, v.object({ upload_id: v.string(), documents_seen: v.number() })]),
      },
    },
    {
      ...idx,
      method: 'post',
      path: `${BASE}/upload-sessions/{id}/finish`,
      id: 'finish_upload_session',
      summary: 'Finish an upload session',
      description: 'Deletes the documents of the datasource that no page of the session named.',
      pathParams: upload,
      errors: [404, 409],
      ok: { description: 'The finished session', schema: UploadSessionSchema },
    },
    {
      ...idx,
      method: 'get',
      path: `${BASE}/upload-sessions/{id}`,
      id: 'get_upload_session',
      summary: 'Get an upload session',
      pathParams: upload,
      errors: [404],
      ok: { description: 'The session', schema: UploadSessionSchema },
    },
    {
      ...idx,
      method: 'delete',
      path: `${BASE}/upload-sessions/{id}`,
      id: 'abandon_upload_session',
      summary: 'Abandon an upload session',
      pathParams: upload,
      errors: [404, 409],
      ok: { description: 'The abandoned session', schema: UploadSessionSchema },
    },
  ];
}
