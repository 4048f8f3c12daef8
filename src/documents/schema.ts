/**
 * The shape of a pushed document (spec, Document and Permissions block) as a
 * valibot schema, plus the field rules that the Pydantic-style validation
 * envelope reports: id characters, file_type, body with exactly one of
 * `text_content` / `binary_base64`, standard Base64, decoded size limit.
 * Rules that need the datasource (subs, custom properties) are in rules.ts.
 */
import * as v from 'valibot';
import { pyIssue } from '../http/validation.ts';
import { DOCUMENT_FILE_TYPES } from '../indexing/file-types.ts';

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
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

/** Decoded size of a standard Base64 string (no decoding). */
export function base64DecodedSize(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - pad;
}

const isoTimestamp = (s: string) => /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s));

const str = (max: number) => v.pipe(v.string(), v.maxLength(max));

export function documentSchema(maxBinaryBytes: number) {
  const body = v.pipe(
    v.strictObject({
      mime_type: v.pipe(v.string(), v.maxLength(DOCUMENT_LIMITS.mimeType), v.check((s) => MEDIA_TYPE.test(s.trim()), pyIssue('value_error', 'Value error, mime_type must be an IANA media type such as text/plain'))),
      text_content: v.optional(v.string()),
      binary_base64: v.optional(
        v.pipe(
          v.string(),
          v.check((s) => BASE64.test(s), pyIssue('value_error', 'Value error, binary_base64 must be standard Base64 (RFC 4648 alphabet A-Z a-z 0-9 + /, padded with =, no line breaks)')),
          v.check((s) => base64DecodedSize(s) <= maxBinaryBytes, pyIssue('value_error', `Value error, decoded binary_base64 exceeds the limit of ${maxBinaryBytes} bytes`, { limit: maxBinaryBytes })),
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
    id: v.pipe(v.string(), v.minLength(1), v.maxLength(DOCUMENT_LIMITS.id), v.regex(DOCUMENT_ID_PATTERN)),
    title: v.optional(str(DOCUMENT_LIMITS.title)),
    body: v.optional(body),
    file_type: v.picklist(DOCUMENT_FILE_TYPES),
    path_preview: v.optional(str(DOCUMENT_LIMITS.pathPreview)),
    path: v.optional(str(DOCUMENT_LIMITS.path)),
    author: v.optional(str(DOCUMENT_LIMITS.author)),
    last_modified: v.optional(v.pipe(v.string(), v.check(isoTimestamp, pyIssue('datetime_from_date_parsing', 'Input should be a valid datetime or date, ISO 8601 expected')))),
    data_source_sub: v.optional(v.pipe(v.string(), v.minLength(1))),
    data_source_sub_sub: v.optional(v.pipe(v.string(), v.minLength(1))),
    permissions: v.optional(
      v.strictObject({
        allow_anonymous_access: v.optional(v.boolean()),
        allowed_users: v.optional(v.pipe(v.array(v.strictObject({ email: v.pipe(v.string(), v.trim(), v.minLength(1)) })), v.maxLength(DOCUMENT_LIMITS.allowedUsers))),
        allowed_groups: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(DOCUMENT_LIMITS.allowedGroups))),
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
