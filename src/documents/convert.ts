/**
 * A queued document plus its extracted text becomes an engine document: text
 * fields (title, body, meta), filter columns (datasource, subs, types,
 * category, access tokens, thread), the last-modified date, and the stored
 * payload that search results are built from.
 */
import type { IndexDocument } from '../../engine/index.ts';
import { compoundSubValue } from '../controlplane/names.ts';
import { searchFileType } from './file-types.ts';
import { DOCUMENT_SCHEMA, documentKey, PUSHED_CATEGORY } from './index-schema.ts';
import type { QueuedDocument } from './queue.ts';
import { parseInstant } from '../validation/iso-date.ts';

/** The text the pipeline indexes for a document. */
export interface DocumentText {
  body: string;
  /** Language hint from the extractor; the engine detects it otherwise. */
  language?: 'de' | 'en';
  author?: string;
  title?: string;
  pageCount?: number;
}

/** The engine caps a document's text; longer bodies are indexed up to this many characters. */
export const MAX_BODY_CHARS = 15 * 1024 * 1024;

/** One separator; the whitespace around it is trimmed off the segments (a `\s*` around it would backtrack quadratically over long whitespace runs). */
const BREADCRUMB = /[>»/\\›]/;

/** Breadcrumb segments of a `path` ("A > B > C", "A/B/C"); empty segments dropped. */
export function pathSegments(path: string | null | undefined): string[] {
  if (!path) return [];
  return path
    .split(BREADCRUMB)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The parent of a breadcrumb path, in the path's own separator style ('' for a single segment). */
export function parentPath(path: string | null | undefined): string {
  if (!path) return '';
  // One scan back to the last separator (a regex with a lazy group before `\s*` backtracked
  // quadratically over long whitespace runs); a line break in what precedes it means no parent.
  const p = path.trimEnd();
  let i = p.length - 1;
  while (i >= 0 && !isPathSeparator(p.charCodeAt(i))) i--;
  if (i < 0) return '';
  const before = p.slice(0, i).trimEnd();
  return /[\n\r\u2028\u2029]/.test(before) ? '' : before.trim();
}

/** `>`, `»`, `/`, `\` or `›`: the separators of breadcrumb paths. */
function isPathSeparator(c: number): boolean {
  return c === 0x3e || c === 0xbb || c === 0x2f || c === 0x5c || c === 0x203a;
}

const THREAD_PROPERTIES = ['thread_id', 'thread', 'conversation_id', 'conversation'];

/**
 * The thread a document belongs to (for `same_thread_docs`): a `thread_id`, `thread`,
 * `conversation_id` or `conversation` custom property when present; else for e-mails and
 * messages the parent of their breadcrumb path, and for `email_parent` its own path.
 */
export function threadOf(doc: Pick<QueuedDocument, 'datasource' | 'file_type' | 'path' | 'properties'>): string | null {
  for (const name of THREAD_PROPERTIES) {
    const p = doc.properties.find((x) => x.name === name);
    if (p && String(p.value).trim() !== '') return `${doc.datasource}|${String(p.value).trim()}`;
  }
  if (doc.file_type === 'email_parent' && doc.path) return `${doc.datasource}|${pathSegments(doc.path).join('/')}`;
  if (doc.file_type === 'email' || doc.file_type === 'message') {
    const parent = pathSegments(parentPath(doc.path));
    if (parent.length > 0) return `${doc.datasource}|${parent.join('/')}`;
  }
  return null;
}

const utf8 = new TextEncoder();
const scratch = new Uint8Array(64 * 1024);

/** Length of `s` encoded as UTF-8 (as TextEncoder writes it); short strings are encoded into a reused buffer. */
export function utf8Length(s: string): number {
  if (s.length * 3 <= scratch.length) return utf8.encodeInto(s, scratch).written;
  return utf8.encode(s).byteLength;
}

/** Size in bytes of the document's content: the decoded binary, or the UTF-8 text. */
export function contentSize(doc: QueuedDocument): number {
  if (doc.binary_blob) return doc.binary_blob.size;
  if (doc.binary_base64 !== null) {
    const b = doc.binary_base64;
    return (b.length / 4) * 3 - (b.endsWith('==') ? 2 : b.endsWith('=') ? 1 : 0);
  }
  return doc.text_content === null ? 0 : utf8Length(doc.text_content);
}

/** Whether the schema declares every text field a document fills (then none is dropped). */
const ALL_TEXT_FIELDS = ['title', 'body', 'meta'].every((f) => f in DOCUMENT_SCHEMA.textFields);

export function toIndexDocument(
  doc: QueuedDocument,
  text: DocumentText,
  extra: { seq: number; suffix: string; mediaFileType: string; indexedAt: number },
): IndexDocument {
  const title = doc.title || text.title || '';
  const author = doc.author ?? text.author ?? null;
  // The non-empty of: author, breadcrumb segments, searchable property values; one per line.
  let meta = author ?? '';
  const crumbs = doc.path ? pathSegments(doc.path).join(' ') : '';
  if (crumbs) meta = meta ? `${meta}\n${crumbs}` : crumbs;
  for (const p of doc.properties) {
    if (!p.searchable) continue;
    const value = String(p.value);
    if (value) meta = meta ? `${meta}\n${value}` : value;
  }
  const keywords: Record<string, string[]> = {
    datasource: [doc.datasource],
    document_type: [doc.file_type],
    file_type: [searchFileType(doc.file_type, extra.mediaFileType)],
    category: [doc.category ?? PUSHED_CATEGORY],
    acl: doc.tokens,
  };
  if (doc.sub) keywords.sub = [compoundSubValue(doc.datasource, doc.sub)];
  if (doc.sub && doc.sub_sub) keywords.sub_sub = [compoundSubValue(doc.datasource, doc.sub_sub, doc.sub)];
  const thread = threadOf(doc);
  if (thread) keywords.thread = [thread];
  const lastModified = doc.last_modified ? parseInstant(doc.last_modified) : NaN;
  const numbers: Record<string, number> = Number.isFinite(lastModified) ? { last_modified: lastModified } : {};
  const body = text.body.length > MAX_BODY_CHARS ? text.body.slice(0, MAX_BODY_CHARS) : text.body;
  const textFields: Record<string, string> = { title, body, meta };
  if (!ALL_TEXT_FIELDS)
    for (const f of Object.keys(textFields)) if (!(f in DOCUMENT_SCHEMA.textFields)) delete textFields[f];
  return {
    key: documentKey(doc.datasource, doc.id),
    ...(text.language ? { language: text.language } : {}),
    text: textFields,
    keywords,
    numbers,
    stored: {
      id: doc.id,
      datasource: doc.datasource,
      title,
      path: doc.path,
      path_preview: doc.path_preview,
      author,
      last_modified: doc.last_modified,
      document_type: doc.file_type,
      mime_type: doc.mime_type,
      file_size: contentSize(doc),
      suffix: extra.suffix,
      sub: doc.sub,
      sub_sub: doc.sub_sub,
      // The sub incarnations the document was bound to (result.ts unbinds it from a later one).
      ...(doc.sub_id ? { sub_id: doc.sub_id } : {}),
      ...(doc.sub_sub_id ? { sub_sub_id: doc.sub_sub_id } : {}),
      page_count: text.pageCount ?? null,
      properties: doc.properties.map((p) => ({ name: p.name, value: p.value })),
      seq: extra.seq,
      indexed_at: extra.indexedAt,
    },
  };
}
