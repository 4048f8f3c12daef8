/**
 * The shape of a pushed document (spec, Document and Permissions block) as a
 * valibot schema, plus the field rules that the Pydantic-style validation
 * envelope reports: id characters, file_type, body with exactly one of
 * `text_content` / `binary_base64`, standard Base64, decoded size limit.
 * Rules that need the datasource (subs, custom properties) are in
 * src/controlplane/document-rules.ts. Also the query of a push and the body of check_access.
 */
import * as v from 'valibot';
import { pyIssue } from '../validation/pydantic.ts';
import { DOCUMENT_FILE_TYPES } from './file-types.ts';
import { isIsoInstant } from '../validation/iso-date.ts';
import { standsForTooLarge, tooLargeMessage } from './spooled.ts';

/** Length bounds the spec leaves "not shown" (documented in the README). */
export const DOCUMENT_LIMITS = {
  id: 512,
  title: 2_000,
  path: 4_096,
  pathPreview: 4_096,
  author: 1_000,
  mimeType: 255,
  customProperties: 200,
  propertyText: 32_768,
  allowedUsers: 2_000,
  allowedGroups: 2_000,
} as const;

export const DOCUMENT_ID_PATTERN = /^[A-Za-z0-9._-]+$/;
/**
 * `.` and `..` are dot segments: URL parsers remove them (also percent-encoded), so a document
 * with such an id could never be reached by DELETE or GET /documents/{datasource}/{document_id}.
 */
export const isDotSegment = (id: string) => id === '.' || id === '..';
/**
 * Standard Base64 with padding: alphabet characters, then at most two `=`, a multiple of 4 long
 * (the same set as groups of four plus a padded last group). No repeated group in the pattern:
 * V8 backtracks over one, and a string of some ten million characters overflowed its stack.
 */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
export const isBase64 = (s: string) => s.length % 4 === 0 && BASE64_CHARS.test(s);
export const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

/** Decoded size of a standard Base64 string (no decoding). */
export function base64DecodedSize(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - pad;
}

const str = (max: number) => v.pipe(v.string(), v.maxLength(max));

const schemas = new Map<number, ReturnType<typeof buildDocumentSchema>>();

/** The document schema for a binary size limit (built once per limit). */
export function documentSchema(maxBinaryBytes: number) {
  let schema = schemas.get(maxBinaryBytes);
  if (!schema) schemas.set(maxBinaryBytes, (schema = buildDocumentSchema(maxBinaryBytes)));
  return schema;
}

function buildDocumentSchema(maxBinaryBytes: number) {
  const body = v.pipe(
    v.strictObject({
      mime_type: v.pipe(
        v.string(),
        v.maxLength(DOCUMENT_LIMITS.mimeType),
        v.check(
          (s) => MEDIA_TYPE.test(s.trim()),
          pyIssue('value_error', 'Value error, mime_type must be an IANA media type such as text/plain'),
        ),
      ),
      text_content: v.optional(v.string()),
      binary_base64: v.optional(
        v.pipe(
          v.string(),
          v.check(
            isBase64,
            pyIssue(
              'value_error',
              'Value error, binary_base64 must be standard Base64 (RFC 4648 alphabet A-Z a-z 0-9 + /, padded with =, no line breaks)',
            ),
          ),
          v.check(
            (s) => base64DecodedSize(s) <= maxBinaryBytes && !standsForTooLarge(s),
            pyIssue('value_error', `Value error, ${tooLargeMessage(maxBinaryBytes)}`, { limit: maxBinaryBytes }),
          ),
        ),
      ),
    }),
    v.check(
      (b) => (b.text_content === undefined) !== (b.binary_base64 === undefined),
      pyIssue('value_error', 'Value error, body must contain exactly one of text_content or binary_base64'),
    ),
  );
  return v.strictObject({
    datasource: v.pipe(v.string(), v.minLength(1)),
    id: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(DOCUMENT_LIMITS.id),
      v.regex(DOCUMENT_ID_PATTERN),
      v.check(
        (id) => !isDotSegment(id),
        pyIssue(
          'value_error',
          "Value error, id cannot be '.' or '..': URLs drop these path segments, so DELETE /documents/{datasource}/{document_id} could not reach the document",
        ),
      ),
    ),
    title: v.optional(str(DOCUMENT_LIMITS.title)),
    body: v.optional(body),
    file_type: v.picklist(DOCUMENT_FILE_TYPES),
    path_preview: v.optional(str(DOCUMENT_LIMITS.pathPreview)),
    path: v.optional(str(DOCUMENT_LIMITS.path)),
    author: v.optional(str(DOCUMENT_LIMITS.author)),
    last_modified: v.optional(
      v.pipe(
        v.string(),
        v.check(
          isIsoInstant,
          pyIssue('datetime_from_date_parsing', 'Input should be a valid datetime or date, ISO 8601 expected'),
        ),
      ),
    ),
    data_source_sub: v.optional(v.pipe(v.string(), v.minLength(1))),
    data_source_sub_sub: v.optional(v.pipe(v.string(), v.minLength(1))),
    permissions: v.optional(
      v.strictObject({
        allow_anonymous_access: v.optional(v.boolean()),
        allowed_users: v.optional(
          v.pipe(
            v.array(v.strictObject({ email: v.pipe(v.string(), v.trim(), v.minLength(1)) })),
            v.maxLength(DOCUMENT_LIMITS.allowedUsers),
          ),
        ),
        allowed_groups: v.optional(
          v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(DOCUMENT_LIMITS.allowedGroups)),
        ),
      }),
    ),
    custom_properties: v.optional(
      v.pipe(
        v.array(v.strictObject({ name: v.pipe(v.string(), v.minLength(1)), value: v.unknown() })),
        v.maxLength(DOCUMENT_LIMITS.customProperties),
      ),
    ),
  });
}

export type DocumentInput = v.InferOutput<ReturnType<typeof documentSchema>>;

/** The request envelope: `{documents: <document> | [<document>, ...]}`; items are validated one by one. */
export const PushEnvelopeSchema = v.strictObject({
  documents: v.union([v.array(v.unknown()), v.pipe(v.record(v.string(), v.unknown()))]),
});

/** The query of POST /documents: wait for the commit, and for how long. */
export const PushQuerySchema = v.strictObject({
  wait: v.optional(v.picklist(['true', 'false', '1', '0'])),
  wait_timeout_ms: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,6}$/), v.transform(Number), v.minValue(1), v.maxValue(120_000)),
  ),
});

/** Query of POST /documents/check-access: `explain=true` adds the structured `explanation`. */
export const CheckAccessQuerySchema = v.object({
  explain: v.optional(v.picklist(['true', 'false', '1', '0'])),
});

/** The body of POST /check_access. */
export const CheckAccessSchema = v.strictObject({
  datasource: v.pipe(v.string(), v.minLength(1)),
  document_id: v.pipe(v.string(), v.minLength(1)),
  user_email: v.pipe(v.string(), v.trim(), v.minLength(1)),
});
export type CheckAccessInput = v.InferOutput<typeof CheckAccessSchema>;
