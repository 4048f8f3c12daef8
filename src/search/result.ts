/**
 * The search result record (spec, Search result): exactly the whitelisted
 * fields, built from an engine hit, its stored payload (documents/convert.ts)
 * and the control plane. Nothing internal (tokens, sequence numbers, custom
 * properties, mime type) leaves this module.
 *
 * Decisions:
 * - `id` is `<datasource>:<document id>`: unique across datasources, stable across re-indexing.
 * - `parent_path` is the breadcrumb `path` without its last segment (convert.ts `parentPath`).
 * - `data_source_sub` / `data_source_sub_sub` are compound (`{ds}__{sub}`, `{ds}__{sub}__{child}`)
 *   and '' when absent or when the sub no longer exists on the datasource.
 * - `file_type` is the search file type (documents/file-types.ts), `document_type` the pushed one.
 * - related lists hold `{id, title, path_preview, data_source}` of visible documents only:
 *   `similar_docs` (more-like-this, near-duplicates left out), `duplicates` (near-duplicates
 *   folded into this hit plus every other visible near-duplicate), `same_thread_docs`
 *   (documents sharing the thread key, the document itself left out, in index order).
 */
import type { Filter, Hit, ParsedQuery, Searcher } from '../../engine/index.ts';
import { parentPath } from '../documents/convert.ts';
import { compoundSubValue } from '../controlplane/names.ts';
import type { SubRecord } from '../controlplane/state.ts';
import { RELATED_STORED_FIELDS } from '../documents/index-schema.ts';
import { highlightMarkup } from './markup.ts';
import type { RelatedCache, RelatedLists } from './related-cache.ts';

export interface RelatedDoc {
  id: string;
  title: string;
  path_preview: string;
  data_source: string;
}

export interface SearchResult {
  id: string;
  title: string;
  path: string;
  path_preview: string;
  parent_path: string;
  data_source: string;
  data_source_sub: string;
  data_source_sub_sub: string;
  file_type: string;
  document_type: string;
  last_modified: string;
  file_size: number;
  author: string;
  highlights: string[];
  summary: string;
  suffix: string;
  similar_docs: RelatedDoc[];
  duplicates: RelatedDoc[];
  same_thread_docs: RelatedDoc[];
}

/** The whitelist, in the spec's order. */
export const SEARCH_RESULT_FIELDS = [
  'id',
  'title',
  'path',
  'path_preview',
  'parent_path',
  'data_source',
  'data_source_sub',
  'data_source_sub_sub',
  'file_type',
  'document_type',
  'last_modified',
  'file_size',
  'author',
  'highlights',
  'summary',
  'suffix',
  'similar_docs',
  'duplicates',
  'same_thread_docs',
] as const satisfies readonly (keyof SearchResult)[];

export const RELATED_DOC_FIELDS = [
  'id',
  'title',
  'path_preview',
  'data_source',
] as const satisfies readonly (keyof RelatedDoc)[];

/** Caps of the related lists (each costs an engine lookup per returned hit). */
export const RELATED_LIMITS = { similar: 5, duplicates: 10, sameThread: 5 } as const;
export const MAX_HIGHLIGHTS = 3;
/**
 * More-like-this for `similar_docs`: the document's 5 best tf-idf terms of its title and body
 * (not `meta`: author and path would make "similar" mean "same author or folder") among those
 * in at most 0.1% of the documents (at least 50 documents, at most half): rare, distinctive
 * terms keep the lookup cheap at scale.
 */
export function similarOptions(numDocs: number): { maxQueryTerms: number; maxDocFreqRatio: number; fields: string[] } {
  return {
    maxQueryTerms: 5,
    maxDocFreqRatio: Math.min(0.5, Math.max(0.001, 50 / Math.max(1, numDocs))),
    fields: ['title', 'body'],
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function related(key: string, stored: Record<string, unknown>): RelatedDoc {
  return {
    id: key,
    title: str(stored.title),
    path_preview: str(stored.path_preview),
    data_source: str(stored.datasource),
  };
}

/**
 * The entry of an engine hit; its stored fields are read only on a cache miss, from the
 * segment's display store where it has one (no stored block decompressed).
 */
function relatedHit(ctx: RecordContext, h: Hit): RelatedDoc {
  const store = ctx.cache?.store;
  if (!store || !h.ref) return related(h.key, ctx.searcher.storedFields(h, RELATED_STORED_FIELDS));
  let d = store.cachedDoc(h.ref.segmentId, h.ref.doc);
  if (d === undefined)
    store.keepDoc(
      h.ref.segmentId,
      h.ref.doc,
      (d = related(h.key, ctx.searcher.storedFields(h, RELATED_STORED_FIELDS))),
    );
  return d;
}

/**
 * Compound sub values, '' for subs the datasource no longer declares and for subs deleted and
 * created again since the document was indexed (its recorded incarnation id differs; a document
 * and a sub from before ids existed both have none).
 */
function subValues(
  subsOf: (datasource: string) => readonly SubRecord[],
  datasource: string,
  s: Record<string, unknown>,
): { sub: string; subSub: string } {
  const sub = str(s.sub);
  const subSub = str(s.sub_sub);
  const subId = str(s.sub_id);
  const subSubId = str(s.sub_sub_id);
  const subs = subsOf(datasource);
  const top = sub !== '' && subs.some((r) => r.key === sub && r.parent_key === undefined && (r.id ?? '') === subId);
  const child =
    top && subSub !== '' && subs.some((r) => r.key === subSub && r.parent_key === sub && (r.id ?? '') === subSubId);
  return {
    sub: top ? compoundSubValue(datasource, sub) : '',
    subSub: child ? compoundSubValue(datasource, subSub, sub) : '',
  };
}

export interface RecordContext {
  searcher: Searcher;
  query: ParsedQuery;
  /** The user's visibility filter (never absent: no filter means no search). */
  visibility: Filter;
  /** The subs a datasource declares now (control-plane state). */
  subsOf: (datasource: string) => readonly SubRecord[];
  /**
   * Optional cache of related lists: the key prefix of this viewer and snapshot, the viewer's
   * token-set id (similar lists kept across snapshots) and the wall clock (epoch ms).
   */
  cache?: { store: RelatedCache; scope: string; viewer?: number; now?: number };
}

/** The query-independent related lists of a document for this viewer (cached when a cache is given). */
function relatedLists(ctx: RecordContext, hit: Hit, thread: string | undefined): RelatedLists {
  const key = hit.key;
  const cached = ctx.cache?.store.get(ctx.cache.scope, key);
  if (cached) return cached;
  const { searcher, visibility } = ctx;
  const duplicates = searcher
    .duplicatesOf(hit, { filter: visibility, limit: RELATED_LIMITS.duplicates })
    .map((d) => relatedHit(ctx, d));
  // Near-duplicates would top the similar list: ask for enough to fill it without them.
  const dupKeys = new Set(duplicates.map((d) => d.id));
  const stable =
    ctx.cache?.viewer !== undefined && hit.ref
      ? { store: ctx.cache.store, viewer: ctx.cache.viewer, source: { segmentId: hit.ref.segmentId, doc: hit.ref.doc } }
      : null;
  const at = { generation: searcher.generation, numDocs: searcher.numDocs, now: ctx.cache?.now ?? Date.now() };
  let similar = stable?.store.similar(stable.viewer, stable.source, at, (v) => searcher.isLive(v));
  if (similar && similar.some((d) => dupKeys.has(d.id))) similar = undefined; // made before a duplicate appeared
  if (!similar) {
    // Stored payloads are read (decompressed) only for the entries kept.
    const found = searcher
      .moreLikeThis(hit, {
        ...similarOptions(searcher.numDocs),
        filter: visibility,
        limit: RELATED_LIMITS.similar + dupKeys.size,
      })
      .filter((d) => !dupKeys.has(d.key))
      .slice(0, RELATED_LIMITS.similar);
    const items = found.map((d) => ({
      entry: relatedHit(ctx, d),
      version: { segmentId: d.ref.segmentId, doc: d.ref.doc },
    }));
    stable?.store.setSimilar(stable.viewer, stable.source, at, items);
    similar = items.map((i) => i.entry);
  }
  const sameThread: RelatedDoc[] = [];
  if (thread) {
    const found = searcher.withKeyword('thread', [thread], {
      filter: visibility,
      limit: RELATED_LIMITS.sameThread + 1,
    });
    for (const h of found)
      if (h.key !== key && sameThread.length < RELATED_LIMITS.sameThread) sameThread.push(relatedHit(ctx, h));
  }
  const lists = { duplicates, similar, sameThread };
  ctx.cache?.store.set(ctx.cache.scope, key, lists);
  return lists;
}

/** The full result record of one hit of the returned page. */
export function buildResult(ctx: RecordContext, hit: Hit): SearchResult {
  const { searcher, visibility } = ctx;
  const s = hit.stored;
  const datasource = str(s.datasource);
  const subs = subValues(ctx.subsOf, datasource, s);
  const path = str(s.path);

  const lists = relatedLists(ctx, hit, searcher.keywordsOf(hit, 'thread')[0]);
  const duplicates = new Map<string, RelatedDoc>();
  for (const d of hit.duplicates ?? [])
    if (duplicates.size < RELATED_LIMITS.duplicates) duplicates.set(d.key, relatedHit(ctx, d));
  for (const d of lists.duplicates)
    if (duplicates.size < RELATED_LIMITS.duplicates && !duplicates.has(d.id)) duplicates.set(d.id, d);
  const similar = lists.similar.filter((d) => !duplicates.has(d.id)).slice(0, RELATED_LIMITS.similar);

  const passages = searcher.highlight(hit, ctx.query, { maxPassages: MAX_HIGHLIGHTS, fields: ['title', 'body'] });
  const fileSize =
    typeof s.file_size === 'number' && Number.isFinite(s.file_size) ? Math.max(0, Math.round(s.file_size)) : 0;
  return {
    id: hit.key,
    title: str(s.title),
    path,
    path_preview: str(s.path_preview),
    parent_path: parentPath(path),
    data_source: datasource,
    data_source_sub: subs.sub,
    data_source_sub_sub: subs.subSub,
    file_type: searcher.keywordsOf(hit, 'file_type')[0] ?? 'other',
    document_type: str(s.document_type),
    last_modified: str(s.last_modified),
    file_size: fileSize,
    author: str(s.author),
    highlights: passages.filter((p) => p.ranges.length > 0).map((p) => highlightMarkup(p.text, p.ranges)),
    summary: searcher.summary(hit),
    suffix: str(s.suffix),
    similar_docs: similar,
    duplicates: [...duplicates.values()],
    same_thread_docs: lists.sameThread,
  };
}
