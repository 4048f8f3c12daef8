/**
 * One fetched page of the website connector as an item: HTML and XHTML are read in the
 * extractors' worker pool (main content without boilerplate, plus links, canonical URL, base URL
 * and robots meta); the document key is the canonical URL when the page names one in scope, else
 * the URL after redirects; the version is a digest of the title and text (a page re-rendered with
 * the same text is not pushed again). Other media types (PDF, Office, text) are pushed as bytes and
 * extracted by the pipeline like a `binary_base64` push. `noindex` (robots meta or X-Robots-Tag)
 * keeps the page out of the index, `nofollow` its links out of the crawl.
 */
import { createHash } from 'node:crypto';
import { extractMainContentPooled } from '../../../extractors/index.ts';
import type { FetchedPage } from '../../websearch/crawler.ts';
import { toPermissions, type Grant } from '../grants.ts';
import type { CandidateItem, Json, SourceDocument } from '../types.ts';

const MAX_TEXT_CHARS = 10_000_000;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export interface ReadPage {
  /** The document key (canonical or final URL). */
  key: string;
  item: CandidateItem;
  /** Absolute links to follow (none under nofollow, none for other media types). */
  links: string[];
}

/** `decodeURIComponent`, or the text as is when it is not valid percent-encoding. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** An absolute http(s) URL without fragment, or null. */
export function normalizeUrl(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href.length <= 2048 ? url.href : null;
}

/** Robots directives of a page: `noindex`, `nofollow` (`none` is both), from meta and X-Robots-Tag. */
function directives(...values: (string | undefined)[]): { noindex: boolean; nofollow: boolean } {
  const words = new Set(
    values
      .filter((v): v is string => !!v)
      .flatMap((v) => v.toLowerCase().split(','))
      .map((w) => w.trim().replace(/^[a-z0-9_-]+:\s*/, '')),
  );
  return { noindex: words.has('noindex') || words.has('none'), nofollow: words.has('nofollow') || words.has('none') };
}

const digest = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex').slice(0, 24);

/** What the crawl remembers of a page between runs (the item's memo). */
export interface PageMemo {
  /** Depth at which the page was found. */
  d: number;
  /** The URL fetched, when it is not the key (a redirect or canonical URL led to the key). */
  u?: string;
  /** ETag and Last-Modified of the response (validators of the next request). */
  e?: string;
  l?: string;
  /** The `last_modified` the document was pushed with. */
  t?: string;
}

export interface PageContext {
  depth: number;
  /** The URL asked for (the key may differ). */
  requested: string;
  signal: AbortSignal;
  /** Whether a URL is in the crawl's scope. */
  inScope(url: URL): boolean;
  grant(url: URL): Grant;
  /** The previous version and memo of the page's key, if any. */
  previous(key: string): { version: string; memo?: PageMemo } | undefined;
  now: () => number;
}

export async function readPage(page: FetchedPage, ctx: PageContext): Promise<ReadPage> {
  const final = normalizeUrl(page.url, page.url)!;
  if (!HTML_TYPES.has(page.mediaType)) {
    const url = new URL(final);
    const version = digest(page.body);
    const { memo, lastModified } = memoOf(page, ctx, final, version);
    const doc: SourceDocument = {
      title: safeDecode(url.pathname.split('/').pop() || url.hostname),
      file_type: 'file',
      path: pathOf(url),
      path_preview: final,
      last_modified: lastModified,
      body: {
        mime_type: page.charset ? `${page.mediaType}; charset=${page.charset}` : page.mediaType,
        bytes: page.body,
      },
      permissions: toPermissions(ctx.grant(url)),
    };
    const noindex = directives(page.robotsTag).noindex;
    return { key: final, links: [], item: { key: final, version, memo, load: async () => (noindex ? null : doc) } };
  }
  const main = await extractMainContentPooled(page.body, {
    charset: page.charset,
    maxChars: MAX_TEXT_CHARS,
    links: true,
    interactive: false,
    signal: ctx.signal,
  });
  const base = (main.base && normalizeUrl(main.base, final)) || final;
  const canonical = main.canonical ? normalizeUrl(main.canonical, base) : null;
  const key = canonical && ctx.inScope(new URL(canonical)) ? canonical : final;
  const { noindex, nofollow } = directives(main.robots, page.robotsTag);
  const links = nofollow
    ? []
    : (main.links ?? []).map((href) => normalizeUrl(href, base)).filter((u): u is string => u !== null);
  const url = new URL(key);
  const title = main.title || safeDecode(url.pathname.split('/').pop() || '') || url.hostname;
  const version = digest(`${title}\n${main.text}`);
  const { memo, lastModified } = memoOf(page, ctx, key, version);
  const doc: SourceDocument = {
    title,
    file_type: 'webpage',
    path: pathOf(url),
    path_preview: key,
    last_modified: lastModified,
    body: { mime_type: 'text/plain', text: main.text },
    permissions: toPermissions(ctx.grant(url)),
  };
  return { key, links, item: { key, version, memo, load: async () => (noindex ? null : doc) } };
}

/** Breadcrumb of a URL: host, then the path's segments (`intra.example/hr/leave`). */
function pathOf(url: URL): string {
  const segments = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(safeDecode);
  return [url.host, ...segments].join('/');
}

/**
 * The memo of a page and the `last_modified` it is pushed with: the version pushed before keeps
 * its date (a push after a settings change is then `already_indexed` unless permissions changed);
 * else the response's Last-Modified when it changed since the previous push, else the time of this
 * fetch (a changed page needs a new `last_modified` to replace the old one).
 */
function memoOf(
  page: FetchedPage,
  ctx: PageContext,
  key: string,
  version: string,
): { memo: Json; lastModified: string } {
  const prev = ctx.previous(key);
  const header = page.lastModified;
  const parsed = header ? Date.parse(header) : NaN;
  let lastModified: string;
  if (prev?.version === version && prev.memo?.t) lastModified = prev.memo.t;
  else if (header && Number.isFinite(parsed) && header !== prev?.memo?.l) lastModified = new Date(parsed).toISOString();
  else lastModified = new Date(ctx.now()).toISOString();
  const memo: PageMemo = { d: ctx.depth, t: lastModified };
  if (ctx.requested !== key) memo.u = ctx.requested;
  if (page.etag) memo.e = page.etag;
  if (header) memo.l = header;
  return { memo: memo as unknown as Json, lastModified };
}
