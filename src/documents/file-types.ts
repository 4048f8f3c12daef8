/**
 * The spec's two file-type vocabularies: the document `file_type` values the
 * Indexing API accepts (spec, Document, in the spec's order;
 * `GET /api/indexing/file-types` answers them) and the search file types a
 * search filters on. A document's `file_type` gives its search file type; for
 * files and assets its media type and name decide, through suffix.ts.
 */
export const DOCUMENT_FILE_TYPES = [
  'message',
  'merge_request',
  'issue',
  'wiki',
  'markdown',
  'blog',
  'content',
  'timeline',
  'email',
  'file',
  'directory',
  'email_parent',
  'issue_parent',
  'wiki_parent',
  'page',
  'merge_request_parent',
  'webpage',
  'asset',
] as const;

export type DocumentFileType = (typeof DOCUMENT_FILE_TYPES)[number];

const SET: ReadonlySet<string> = new Set(DOCUMENT_FILE_TYPES);
export const isDocumentFileType = (s: string): s is DocumentFileType => SET.has(s);

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
export type SearchFileType = (typeof SEARCH_FILE_TYPES)[number];

/**
 * Document file type -> search file type. `null` means "decided by the media type and name"
 * (the suffix table of suffix.ts: pdf, word, powerpoint, excel, html, txt, compressed, image,
 * email, onenote, other).
 */
export const DOCUMENT_TO_SEARCH_FILE_TYPE: Record<string, SearchFileType | null> = {
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

export function searchFileType(documentType: string, fromMediaType: string): SearchFileType {
  const direct = DOCUMENT_TO_SEARCH_FILE_TYPE[documentType];
  if (direct) return direct;
  return (SEARCH_FILE_TYPES as readonly string[]).includes(fromMediaType) ? (fromMediaType as SearchFileType) : 'other';
}
