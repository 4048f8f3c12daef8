/**
 * Fast path of the document schema (schemas.ts) for bulk pushes: plain checks that
 * accept a raw document only when the schema would certainly pass it unchanged.
 * Anything else goes through the schema, which yields the exact output or the
 * exact error items; so this module never decides an error.
 */
import { isIsoInstant } from '../validation/iso-date.ts';
import { DOCUMENT_FILE_TYPES } from './file-types.ts';
import { standsForTooLarge } from './spooled.ts';
import {
  base64DecodedSize,
  DOCUMENT_ID_PATTERN,
  DOCUMENT_LIMITS,
  isBase64,
  isDotSegment,
  MEDIA_TYPE,
  type DocumentInput,
} from './schemas.ts';

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
  if (d.last_modified !== undefined && (typeof d.last_modified !== 'string' || !isIsoInstant(d.last_modified)))
    return undefined;
  if (!optionalNonEmpty(d.data_source_sub) || !optionalNonEmpty(d.data_source_sub_sub)) return undefined;
  if (d.body !== undefined && !validBody(d.body, maxBinaryBytes)) return undefined;
  if (d.permissions !== undefined && !validPermissions(d.permissions)) return undefined;
  if (d.custom_properties !== undefined && !validProperties(d.custom_properties)) return undefined;
  return raw as DocumentInput;
}
