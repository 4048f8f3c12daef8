/**
 * Turns a fetched page into readable content. Pages that need a parser never parse on the
 * server thread: HTML and XHTML go through the main-content extraction and PDF through the
 * registry, both in the extractors' worker pool under a wall-time limit of
 * PAGE_EXTRACT_TIMEOUT_MS (10 s), so a hostile or large page cannot block other requests.
 * Plain text is only decoded and cut here. A page the pool cannot read (TIMEOUT, ABORTED,
 * OVERLOADED, CORRUPT) rejects with the ExtractionError; the crawler then keeps the hit's snippet.
 */
import {
  MAIN_CONTENT_TIMEOUT_MS,
  decodeText,
  type JobRunner,
  type MainContent,
  extract,
  extractMainContentPooled,
  truncateText,
} from '../../extractors/index.ts';
import type { FetchedPage } from './crawler.ts';

export interface PageContent {
  title?: string;
  description?: string;
  text: string;
  truncated: boolean;
}

/** Wall-time limit of reading one crawled page (HTML or PDF) in the worker pool. */
export const PAGE_EXTRACT_TIMEOUT_MS = MAIN_CONTENT_TIMEOUT_MS;

/** Main content of an HTML/XHTML body; `charset` is the Content-Type parameter. */
export type HtmlExtractor = (
  bytes: Uint8Array,
  charset: string | undefined,
  maxChars: number,
  signal: AbortSignal,
) => Promise<MainContent>;
/** Text of a binary document (PDF). */
export type DocumentExtractor = (
  bytes: Uint8Array,
  mediaType: string,
  signal: AbortSignal,
) => Promise<{ text: string; title?: string }>;

/** How pages that need a parser are read; injectable for tests. */
export interface PageExtractors {
  html: HtmlExtractor;
  document: DocumentExtractor;
}

/** Both readers in the extractors' worker pool: `pool`, default the shared pool. */
export function poolPageExtractors(pool?: JobRunner): PageExtractors {
  return {
    html: (bytes, charset, maxChars, signal) =>
      extractMainContentPooled(bytes, { charset, maxChars, signal, timeoutMs: PAGE_EXTRACT_TIMEOUT_MS, pool }),
    document: async (bytes, mediaType, signal) => {
      const x = await extract(bytes, {
        mediaType,
        signal,
        limits: { timeoutMs: PAGE_EXTRACT_TIMEOUT_MS },
        pool,
        interactive: true,
      });
      return { text: x.text, title: x.title };
    },
  };
}

/** Readable content of a page, cut at `maxChars`. */
export async function pageContent(
  page: FetchedPage,
  maxChars: number,
  extractors: PageExtractors,
  signal: AbortSignal,
): Promise<PageContent> {
  if (page.mediaType === 'text/html' || page.mediaType === 'application/xhtml+xml') {
    const main = await extractors.html(page.body, page.charset, maxChars, signal);
    return {
      title: main.title,
      description: main.description,
      text: main.text,
      truncated: main.truncated || page.truncated,
    };
  }
  if (page.mediaType === 'text/plain') {
    const cut = truncateText(decodeText(page.body, page.charset).replace(/\r\n?/g, '\n').trim(), maxChars);
    return { text: cut.text, truncated: cut.truncated || page.truncated };
  }
  const doc = await extractors.document(page.body, page.mediaType, signal);
  const cut = truncateText(doc.text.trim(), maxChars);
  return { title: doc.title, text: cut.text, truncated: cut.truncated };
}
