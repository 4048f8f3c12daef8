/**
 * The document `file_type` values the Indexing API accepts (spec, Document),
 * in the spec's order; `GET /api/indexing/file-types` answers them.
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
