/**
 * The crawl of the website connector: breadth first from the start URLs, the sitemaps' URLs
 * and every page earlier runs indexed (at the depth it was found), within the scope, depth and
 * page limits, `concurrency` pages at a time, each host at its own rate. Every known page is
 * asked for with its validators (If-None-Match / If-Modified-Since): a 304 is `unchanged`
 * without any extraction; a 404 or 410 is `gone`; a failure (timeout, refused connection,
 * server error, robots.txt unreachable) is `failed` and tried again next run. A page that
 * robots.txt disallows is not yielded, so a page newly disallowed leaves the index.
 * The listing is incomplete (nothing unseen is deleted) when the page limit cut the crawl or a
 * sitemap could not be read.
 */
import { CrawlError } from '../../websearch/crawler.ts';
import { errorMessage } from '../pusher.ts';
import type { Json, RunContext, SourceItem } from '../types.ts';
import { timedSignal, type SiteFetcher } from './fetcher.ts';
import { normalizeUrl, readPage, safeDecode, type PageMemo } from './page.ts';
import type { WebsiteCredentials, WebsiteSettings } from './settings.ts';
import { parseSitemap, SITEMAP_MAX_BYTES, sitemapText } from './sitemap.ts';
import { pathRules, EVERYONE, type Grant } from '../grants.ts';

const MAX_SITEMAP_FILES = 100;
const CHANNEL_SIZE = 32;

interface Job {
  url: string;
  depth: number;
  /** The key earlier runs recorded for this URL (it differs after a redirect or a canonical URL). */
  key?: string;
}

/** A bounded hand-over from the crawl workers to the run's consumer. */
class Channel<T> {
  private items: T[] = [];
  private closed = false;
  private wakeConsumer: (() => void) | undefined;
  private wakeProducers: (() => void)[] = [];

  async push(item: T): Promise<void> {
    while (this.items.length >= CHANNEL_SIZE && !this.closed)
      await new Promise<void>((r) => this.wakeProducers.push(r));
    this.items.push(item);
    this.wakeConsumer?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    this.wakeConsumer?.();
    for (const w of this.wakeProducers.splice(0)) w();
  }

  async *drain(): AsyncGenerator<T> {
    for (;;) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        this.wakeProducers.shift()?.();
      } else if (this.closed) return;
      else await new Promise<void>((r) => (this.wakeConsumer = r));
    }
  }
}

export async function* crawl(
  run: RunContext<WebsiteSettings, WebsiteCredentials>,
  fetcher: SiteFetcher,
): AsyncGenerator<SourceItem> {
  const s = run.settings;
  const queue: Job[] = [];
  let head = 0;
  const enqueued = new Map<string, Job>();
  const emitted = new Set<string>();
  let fetched = 0;
  let busy = 0;
  let limited = false;
  let wakeIdle: (() => void)[] = [];
  const grant = s.permissions.mode === 'paths' ? pathRules(s.permissions.paths, s.permissions.default) : () => EVERYONE;
  const grantOf = (u: URL): Grant => grant(safeDecode(u.pathname));

  const enqueue = (raw: string, depth: number, key?: string) => {
    const url = normalizeUrl(raw, raw);
    const known = url ? enqueued.get(url) : undefined;
    if (known && key) known.key ??= key;
    if (!url || known || depth > s.max_depth || !fetcher.inScope(new URL(url))) return;
    const job: Job = key ? { url, depth, key } : { url, depth };
    enqueued.set(url, job);
    queue.push(job);
    run.setTotal(Math.min(enqueued.size, s.max_pages));
    for (const w of wakeIdle.splice(0)) w();
  };

  for (const u of s.start_urls) enqueue(u, 0);
  for (const u of await sitemapUrls(run, fetcher)) enqueue(u, 0);
  for (const key of [...run.knownKeys()]) {
    const memo = run.previous(key)?.memo as Partial<PageMemo> | undefined;
    enqueue(memo?.u ?? key, typeof memo?.d === 'number' ? memo.d : s.max_depth, key);
  }

  const channel = new Channel<SourceItem>();
  const visit = async (job: Job): Promise<void> => {
    for (const item of await visitPage(job)) {
      if (emitted.has(item.key)) continue;
      emitted.add(item.key);
      await channel.push(item);
    }
  };

  const visitPage = async (job: Job): Promise<SourceItem[]> => {
    const url = new URL(job.url);
    const key = job.key ?? job.url;
    const failedMemo = (): Json => ({ d: job.depth, ...(job.key && job.key !== job.url ? { u: job.url } : {}) });
    const robots = await fetcher.robots(url.origin);
    if ('unreachable' in robots)
      return [{ key, failed: `robots.txt of ${url.origin} unreachable: ${robots.unreachable}`, memo: failedMemo() }];
    if (!robots.allowed(url.pathname + url.search)) return [];
    const prev = run.previous(key);
    const memo = (prev?.memo ?? {}) as Partial<PageMemo>;
    const conditional = prev && !prev.failed && (memo.e || memo.l) ? { etag: memo.e, lastModified: memo.l } : undefined;
    let page;
    try {
      page = await fetcher.fetch(job.url, { conditional });
    } catch (err) {
      if (err instanceof CrawlError && (err.status === 404 || err.status === 410)) return [{ key, gone: true }];
      return [{ key, failed: errorMessage(err), memo: failedMemo() }];
    }
    if (page.status === 304) return [{ key, unchanged: true, memo: { ...memo, d: job.depth } as Json }];
    const final = normalizeUrl(page.url, page.url);
    if (!final || !fetcher.inScope(new URL(final))) return [];
    const extraction = timedSignal(run.signal);
    try {
      const read = await readPage(page, {
        depth: job.depth,
        requested: job.url,
        signal: extraction.signal,
        inScope: (u) => fetcher.inScope(u),
        grant: grantOf,
        previous: (k) => run.previous(k) as { version: string; memo?: PageMemo } | undefined,
        now: () => Date.now(),
      });
      if (job.depth < s.max_depth) for (const link of read.links) enqueue(link, job.depth + 1);
      return [read.item];
    } catch (err) {
      return [{ key, failed: `the page cannot be read: ${errorMessage(err)}`, memo: failedMemo() }];
    } finally {
      extraction.release();
    }
  };

  const worker = async () => {
    while (!run.signal.aborted && !channel.isClosed) {
      if (head < queue.length) {
        if (fetched >= s.max_pages) {
          limited = true;
          return;
        }
        const job = queue[head++];
        fetched++;
        busy++;
        try {
          await visit(job);
        } finally {
          busy--;
          for (const w of wakeIdle.splice(0)) w();
        }
      } else if (busy === 0) return;
      else await new Promise<void>((r) => wakeIdle.push(r));
    }
  };

  const workers = Promise.all(Array.from({ length: s.concurrency }, worker)).finally(() => {
    wakeIdle = [];
    channel.close();
  });
  try {
    yield* channel.drain();
  } finally {
    channel.close();
    await workers;
  }
  if (limited) run.incomplete(`the page limit of ${s.max_pages} was reached`);
}

/** Page URLs of the configured sitemaps (and the start hosts' robots.txt sitemaps), nested indexes followed. */
async function sitemapUrls(run: RunContext<WebsiteSettings>, fetcher: SiteFetcher): Promise<string[]> {
  const s = run.settings;
  const pending = [...s.sitemaps];
  if (s.robots_sitemaps) {
    for (const origin of new Set(s.start_urls.map((u) => new URL(u).origin))) {
      const robots = await fetcher.robots(origin);
      if (!('unreachable' in robots)) pending.push(...robots.sitemaps);
    }
  }
  const seen = new Set<string>();
  const urls: string[] = [];
  while (pending.length > 0 && seen.size < MAX_SITEMAP_FILES && !run.signal.aborted) {
    const url = pending.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    try {
      const page = await fetcher.fetch(url, { maxBytes: SITEMAP_MAX_BYTES });
      const map = parseSitemap(sitemapText(page.body));
      if (map.kind === 'index') pending.push(...map.locs);
      else urls.push(...map.locs);
    } catch (err) {
      run.incomplete(`the sitemap ${url} could not be read: ${errorMessage(err)}`);
    }
  }
  return urls;
}
