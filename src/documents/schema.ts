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
import { hasRealCalendarFields, parseInstant } from '../iso-date.ts';
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
const isDotSegment = (id: string) => id === '.' || id === '..';
/**
 * Standard Base64 with padding: alphabet characters, then at most two `=`, a multiple of 4 long
 * (the same set as groups of four plus a padded last group). No repeated group in the pattern:
 * V8 backtracks over one, and a string of some ten million characters overflowed its stack.
 */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (s: string) => s.length % 4 === 0 && BASE64_CHARS.test(s);
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

/** Decoded size of a standard Base64 string (no decoding). */
export function base64DecodedSize(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - pad;
}

/** ISO 8601 date or date-time on a day that exists (iso-date.ts: Date.parse alone rolls `02-30` over). */
const isoTimestamp = (s: string) =>
  /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
  hasRealCalendarFields(s) &&
  !Number.isNaN(parseInstant(s));

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
          isoTimestamp,
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

const FILE_TYPES: ReadonlySet<string> = new Set(DOCUMENT_FILE_TYPES);
const DOCUMENT_KEYS: ReadonlySet<string> = new Set([
  'datasource',
  'id',
  'title',
  'body',
  'file_type',
  'path_preview',
  'path',
  'author',
  'last_modified',
  'data_source_sub',
  'data_source_sub_sub',
  'permissions',
  'custom_properties',
]);
const BODY_KEYS: ReadonlySet<string> = new Set(['mime_type', 'text_content', 'binary_base64']);
const PERMISSION_KEYS: ReadonlySet<string> = new Set(['allow_anonymous_access', 'allowed_users', 'allowed_groups']);

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const optionalText = (x: unknown, max: number) => x === undefined || (typeof x === 'string' && x.length <= max);
const optionalNonEmpty = (x: unknown) => x === undefined || (typeof x === 'string' && x.length >= 1);

function onlyKeys(o: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const k in o) if (!allowed.has(k)) return false;
  return true;
}

function validBody(b: unknown, maxBinaryBytes: number): boolean {
  if (!isRecord(b) || !onlyKeys(b, BODY_KEYS)) return false;
  const { mime_type, text_content, binary_base64 } = b;
  if (
    typeof mime_type !== 'string' ||
    mime_type.length > DOCUMENT_LIMITS.mimeType ||
    !MEDIA_TYPE.test(mime_type.trim())
  )
    return false;
  if (text_content !== undefined && typeof text_content !== 'string') return false;
  if (
    binary_base64 !== undefined &&
    (typeof binary_base64 !== 'string' ||
      base64DecodedSize(binary_base64) > maxBinaryBytes ||
      !isBase64(binary_base64) ||
      standsForTooLarge(binary_base64))
  )
    return false;
  return (text_content === undefined) !== (binary_base64 === undefined);
}

function validPermissions(p: unknown): boolean {
  if (!isRecord(p) || !onlyKeys(p, PERMISSION_KEYS)) return false;
  const { allow_anonymous_access, allowed_users, allowed_groups } = p;
  if (allow_anonymous_access !== undefined && typeof allow_anonymous_access !== 'boolean') return false;
  if (allowed_users !== undefined) {
    if (!Array.isArray(allowed_users) || allowed_users.length > DOCUMENT_LIMITS.allowedUsers) return false;
    for (const u of allowed_users) {
      // Emails that the schema would trim take the schema path (its output is the trimmed value).
      if (
        !isRecord(u) ||
        !onlyKeys(u, EMAIL_KEYS) ||
        typeof u.email !== 'string' ||
        u.email.length === 0 ||
        u.email.trim() !== u.email
      )
        return false;
    }
  }
  if (allowed_groups !== undefined) {
    if (!Array.isArray(allowed_groups) || allowed_groups.length > DOCUMENT_LIMITS.allowedGroups) return false;
    for (const g of allowed_groups) if (typeof g !== 'string' || g.length === 0) return false;
  }
  return true;
}
const EMAIL_KEYS: ReadonlySet<string> = new Set(['email']);
const PROPERTY_KEYS: ReadonlySet<string> = new Set(['name', 'value']);

function validProperties(props: unknown): boolean {
  if (!Array.isArray(props) || props.length > DOCUMENT_LIMITS.customProperties) return false;
  for (const p of props) {
    if (
      !isRecord(p) ||
      !onlyKeys(p, PROPERTY_KEYS) ||
      typeof p.name !== 'string' ||
      p.name.length === 0 ||
      !('value' in p)
    )
      return false;
  }
  return true;
}

/**
 * Fast path of `documentSchema`: the input itself when it certainly passes the schema unchanged
 * (the schema's only transform, trimming emails, is left to the schema), else undefined; then the
 * caller validates with the schema, which yields the exact output or the exact error items.
 */
export function fastValidDocument(raw: unknown, maxBinaryBytes: number): DocumentInput | undefined {
  if (!isRecord(raw) || !onlyKeys(raw, DOCUMENT_KEYS)) return undefined;
  const d = raw;
  if (typeof d.datasource !== 'string' || d.datasource.length === 0) return undefined;
  if (
    typeof d.id !== 'string' ||
    d.id.length === 0 ||
    d.id.length > DOCUMENT_LIMITS.id ||
    !DOCUMENT_ID_PATTERN.test(d.id) ||
    isDotSegment(d.id)
  )
    return undefined;
  if (typeof d.file_type !== 'string' || !FILE_TYPES.has(d.file_type)) return undefined;
  if (!optionalText(d.title, DOCUMENT_LIMITS.title) || !optionalText(d.path_preview, DOCUMENT_LIMITS.pathPreview))
    return undefined;
  if (!optionalText(d.path, DOCUMENT_LIMITS.path) || !optionalText(d.author, DOCUMENT_LIMITS.author)) return undefined;
  if (d.last_modified !== undefined && (typeof d.last_modified !== 'string' || !isoTimestamp(d.last_modified)))
    return undefined;
  if (!optionalNonEmpty(d.data_source_sub) || !optionalNonEmpty(d.data_source_sub_sub)) return undefined;
  if (d.body !== undefined && !validBody(d.body, maxBinaryBytes)) return undefined;
  if (d.permissions !== undefined && !validPermissions(d.permissions)) return undefined;
  if (d.custom_properties !== undefined && !validProperties(d.custom_properties)) return undefined;
  return raw as DocumentInput;
}
