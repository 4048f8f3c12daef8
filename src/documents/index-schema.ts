/**
 * How pushed documents live in the engine: the index schema (text fields with
 * boosts, keyword and numeric columns), the document key and the category of
 * pushed datasources.
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
