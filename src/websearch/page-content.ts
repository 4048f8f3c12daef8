/**
 * Turns a fetched page into readable content: HTML and XHTML through the
 * main-content extraction (charset from the header, a BOM or `<meta charset>`),
 * plain text decoded as is, PDF through the extractors' worker pool (so a
 * hostile PDF is bounded in wall time and cannot block the server thread).
 */
import { decodeText } from '../../extractors/text-decode.ts';
import { extract } from '../../extractors/index.ts';
import type { FetchedPage } from './crawler.ts';
import { extractMainContent, truncateText } from '../../extractors/web/main-content.ts';

export interface PageContent {
  title?: string;
  description?: string;
  text: string;
  truncated: boolean;
}

/** Extracts text of binary documents (PDF); injectable for tests. */
export type DocumentExtractor = (bytes: Uint8Array, mediaType: string, signal: AbortSignal) => Promise<{ text: string; title?: string }>;

export const poolDocumentExtractor: DocumentExtractor = async (bytes, mediaType, signal) => {
  const x = await extract(bytes, { mediaType, signal, limits: { timeoutMs: 10_000 } });
  return { text: x.text, title: x.title };
};

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 2048));
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

/** Readable content of a page, cut at `maxChars`. */
export async function pageContent(
  page: FetchedPage,
  maxChars: number,
  extractDocument: DocumentExtractor,
  signal: AbortSignal,
): Promise<PageContent> {
  if (page.mediaType === 'text/html' || page.mediaType === 'application/xhtml+xml') {
    const html = decodeText(page.body, page.charset ?? metaCharset(page.body));
    const main = extractMainContent(html, maxChars);
    return { ...main, truncated: main.truncated || page.truncated };
  }
  if (page.mediaType === 'text/plain') {
    const cut = truncateText(decodeText(page.body, page.charset).replace(/\r\n?/g, '\n').trim(), maxChars);
    return { text: cut.text, truncated: cut.truncated || page.truncated };
  }
  const doc = await extractDocument(page.body, page.mediaType, signal);
  const cut = truncateText(doc.text.trim(), maxChars);
  return { title: doc.title, text: cut.text, truncated: cut.truncated };
}
