/**
 * How pushed documents live in the engine: the index schema (text fields with
 * boosts, keyword and numeric columns), the document key, and the mapping from
 * a document's own `file_type` (and media type) to the search file type.
 */
import type { IndexSchema } from '../../engine/index.ts';

/** The stored fields of a related-list entry (search result `{id, title, path_preview, data_source}`). */
export const RELATED_STORED_FIELDS = ['title', 'path_preview', 'datasource'] as const;

/**
 * Text fields: title over body; `meta` holds author, path and searchable custom property values.
 * The related-list entries' stored fields are display fields (read without a block inflate).
 */
export const DOCUMENT_SCHEMA: IndexSchema = {
  textFields: { title: { boost: 2 }, body: {}, meta: { boost: 0.5 } },
  keywordFields: ['datasource', 'sub', 'sub_sub', 'document_type', 'file_type', 'category', 'acl', 'thread'],
  numericFields: ['last_modified'],
  displayFields: [...RELATED_STORED_FIELDS],
};

/** Engine key and search-result id of a document: `<datasource>:<id>` (unique across datasources, stable). */
export const documentKey = (datasource: string, id: string) => `${datasource}:${id}`;

export function splitDocumentKey(key: string): { datasource: string; id: string } {
  const i = key.indexOf(':');
  return { datasource: key.slice(0, i), id: key.slice(i + 1) };
}

/** The source category of pushed datasources (spec, Search endpoint: `other`). */
export const PUSHED_CATEGORY = 'other';

/** The spec's search file types. */
export const SEARCH_FILE_TYPES = [
  'pdf',
  'word',
  'powerpoint',
  'excel',
  'email',
  'directory',
  'html',
  'txt',
  'compressed',
  'image',
  'message',
  'task',
  'issue',
  'wiki',
  'news',
  'page',
  'onenote',
  'comment',
  'other',
] as const;
export type SearchFileTypeValue = (typeof SEARCH_FILE_TYPES)[number];

/**
 * Document file type -> search file type. `null` means "decided by the media type and name"
 * (the extractors' suffix table: pdf, word, powerpoint, excel, html, txt, compressed, image,
 * email, onenote, other).
 */
export const DOCUMENT_TO_SEARCH_FILE_TYPE: Record<string, SearchFileTypeValue | null> = {
  message: 'message',
  merge_request: 'task',
  merge_request_parent: 'task',
  issue: 'issue',
  issue_parent: 'issue',
  wiki: 'wiki',
  wiki_parent: 'wiki',
  markdown: 'txt',
  blog: 'news',
  timeline: 'news',
  content: 'page',
  page: 'page',
  email: 'email',
  email_parent: 'email',
  directory: 'directory',
  webpage: 'html',
  file: null,
  asset: null,
};

export function searchFileType(documentType: string, fromMediaType: string): SearchFileTypeValue {
  const direct = DOCUMENT_TO_SEARCH_FILE_TYPE[documentType];
  if (direct) return direct;
  return (SEARCH_FILE_TYPES as readonly string[]).includes(fromMediaType)
    ? (fromMediaType as SearchFileTypeValue)
    : 'other';
}
