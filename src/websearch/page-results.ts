/**
 * Search hits to results: each hit starts as its snippet result; pages are
 * then crawled concurrently (at most `concurrency` at a time) and a page that
 * was fetched and read in time replaces its snippet with the page's main
 * content. At `deadlineAt` the results are returned as they are and the
 * remaining fetches are aborted, so a slow page costs its content, never the
 * whole answer.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from '../log.ts';
import { abortScope } from './abort.ts';
import { fetchPage } from './crawler.ts';
import { type PageExtractors, pageContent } from './page-content.ts';
import type { SearchHit } from './providers/types.ts';
import type { AddressPolicy } from './ssrf.ts';
import type { WebSearchResult } from './types.ts';

export interface CrawlSettings {
  userAgent: string;
  policy: AddressPolicy;
  maxBytes: number;
  maxRedirects: number;
  concurrency: number;
  /** Upper bound per page (ms); the deadline still applies. */
  pageTimeoutMs: number;
  /** Characters of content per page. */
  maxChars: number;
  /** Readers of HTML and PDF pages (the worker pool in production). */
  extractors: PageExtractors;
  log: Logger;
}

/** The snippet form of a hit: its description plus any extra snippets. */
export function snippetResult(hit: SearchHit): WebSearchResult {
  return {
    url: hit.url,
    metadata: { title: hit.title, description: hit.description },
    content: [hit.description, ...hit.extraSnippets].filter(Boolean).join('\n'),
  };
}

async function crawlOne(hit: SearchHit, s: CrawlSettings, signal: AbortSignal): Promise<WebSearchResult | null> {
  const scope = abortScope([signal], s.pageTimeoutMs);
  let content;
  try {
    const page = await fetchPage(hit.url, {
      userAgent: s.userAgent,
      policy: s.policy,
      maxBytes: s.maxBytes,
      maxRedirects: s.maxRedirects,
      signal: scope.signal,
    });
    content = await pageContent(page, s.maxChars, s.extractors, scope.signal);
  } finally {
    scope.dispose();
  }
  if (!content.text.trim()) return null;
  return {
    url: hit.url,
    metadata: { title: hit.title || content.title || '', description: hit.description || content.description || '' },
    content: content.text,
  };
}

/** Crawl every hit until `deadlineAt` (epoch ms); hits not read in time keep their snippet. */
export async function crawlHits(
  hits: SearchHit[],
  s: CrawlSettings,
  deadlineAt: number,
  signal: AbortSignal,
): Promise<WebSearchResult[]> {
  const results = hits.map(snippetResult);
  if (hits.length === 0) return results;
  const stop = new AbortController();
  setMaxListeners(s.concurrency + 8, stop.signal); // one listener per in-flight page plus the deadline
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const worker = async () => {
    while (next < hits.length && !stop.signal.aborted) {
      const i = next++;
      try {
        const r = await crawlOne(hits[i], s, stop.signal);
        if (r && !stop.signal.aborted) results[i] = r;
      } catch (err) {
        const e = err as { code?: string; message?: string };
        s.log.debug('page not crawled', { url: hits[i].url, code: e.code, reason: e.message });
      }
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadlineAt - Date.now()));
    stop.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  const workers = Array.from({ length: Math.min(s.concurrency, hits.length) }, worker);
  try {
    await Promise.race([Promise.all(workers), deadline]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    stop.abort();
  }
  return results.slice();
}
