/**
 * HTTP for the website connector, over the web-search crawler's guarded fetch
 * (src/websearch/crawler.ts: the SSRF policy on every resolved address and redirect, bodies
 * streamed and capped): the scope (hosts and path globs), the per-host SSRF allow-list for
 * intranet hosts, credentials for hosts in scope only, a per-host request rate (with the
 * site's crawl-delay, at most MAX_CRAWL_DELAY_S), a time limit per request, and each origin's
 * robots.txt (fetched once per run; RFC 9309 outcomes: 4xx allows all, 5xx or unreachable
 * disallows all).
 */
import type { Config } from '../../config.ts';
import { CrawlError, fetchPage, type FetchedPage } from '../../websearch/crawler.ts';
import { DEFAULT_USER_AGENT } from '../../websearch/service.ts';
import { createAddressPolicy, type AddressPolicy } from '../../websearch/ssrf.ts';
import { globMatcher, type GlobMatcher } from '../glob.ts';
import { ALLOW_ALL, parseRobots, productToken, ROBOTS_MAX_BYTES, type RobotsRules } from './robots.ts';
import type { WebsiteCredentials, WebsiteSettings } from './settings.ts';
import { safeDecode } from './page.ts';

const MAX_CRAWL_DELAY_S = 60;
const ROBOTS_REDIRECTS = 5;

/** A robots.txt that could not be read because the site is unreachable (RFC 9309: disallow all). */
export interface RobotsUnreachable {
  unreachable: string;
}

export class SiteFetcher {
  readonly userAgent: string;
  private readonly hosts: Set<string>;
  private readonly include: GlobMatcher | null;
  private readonly exclude: GlobMatcher;
  private readonly basePolicy: AddressPolicy;
  private readonly intranetPolicy = createAddressPolicy({ allowPrivate: true });
  private readonly authorization: string | undefined;
  private readonly robotsByOrigin = new Map<string, Promise<RobotsRules | RobotsUnreachable>>();
  private readonly nextSlot = new Map<string, number>();
  private readonly crawlDelays = new Map<string, number>();

  constructor(
    private readonly settings: WebsiteSettings,
    credentials: WebsiteCredentials | undefined,
    private readonly config: Config,
    private readonly signal: AbortSignal,
  ) {
    this.userAgent = config.webSearch.userAgent || DEFAULT_USER_AGENT;
    this.hosts = new Set([
      ...[...settings.start_urls, ...settings.sitemaps].map((u) => new URL(u).hostname),
      ...settings.allowed_hosts,
    ]);
    this.include = settings.include.length > 0 ? globMatcher(settings.include) : null;
    this.exclude = globMatcher(settings.exclude);
    this.basePolicy = createAddressPolicy({ allowPrivate: config.webSearch.allowPrivateAddresses });
    if (credentials?.bearer_token) this.authorization = `Bearer ${credentials.bearer_token}`;
    else if (credentials?.username !== undefined)
      this.authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ''}`).toString('base64')}`;
  }

  /** Whether a URL is crawled: http(s), a host in scope, its path included and not excluded. */
  inScope(url: URL): boolean {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (!this.hosts.has(url.hostname)) return false;
    const path = safeDecode(url.pathname);
    return !this.exclude.matches(path) && (this.include === null || this.include.matches(path));
  }

  /** Fetch a page (or sitemap) under the scope's rules; throws CrawlError. */
  async fetch(
    url: string,
    options: { conditional?: { etag?: string; lastModified?: string }; maxBytes?: number } = {},
  ): Promise<FetchedPage> {
    await this.slot(new URL(url));
    const { signal, release } = timedSignal(this.signal, this.settings.page_timeout_ms);
    try {
      return await fetchPage(url, {
        userAgent: this.userAgent,
        policy: this.basePolicy,
        policyFor: (u) => (this.isIntranet(u.hostname) ? this.intranetPolicy : this.basePolicy),
        headersFor: (u): Record<string, string> =>
          this.authorization && this.hosts.has(u.hostname) ? { authorization: this.authorization } : {},
        maxBytes: options.maxBytes ?? this.settings.max_page_bytes,
        maxRedirects: this.config.webSearch.crawlMaxRedirects,
        signal,
        readableTypes: new Set(['*']),
        conditional: options.conditional,
      });
    } finally {
      release();
    }
  }

  /** The robots rules of an origin (fetched once per run). */
  robots(origin: string): Promise<RobotsRules | RobotsUnreachable> {
    let rules = this.robotsByOrigin.get(origin);
    if (!rules) {
      rules = this.loadRobots(origin);
      this.robotsByOrigin.set(origin, rules);
    }
    return rules;
  }

  private async loadRobots(origin: string): Promise<RobotsRules | RobotsUnreachable> {
    const { signal, release } = timedSignal(this.signal, this.settings.page_timeout_ms);
    try {
      await this.slot(new URL(origin));
      const page = await fetchPage(`${origin}/robots.txt`, {
        userAgent: this.userAgent,
        policy: this.basePolicy,
        policyFor: (u) => (this.isIntranet(u.hostname) ? this.intranetPolicy : this.basePolicy),
        maxBytes: ROBOTS_MAX_BYTES,
        maxRedirects: ROBOTS_REDIRECTS,
        signal,
        readableTypes: new Set(['*']),
      });
      const rules = parseRobots(new TextDecoder().decode(page.body), productToken(this.userAgent));
      if (rules.crawlDelay !== undefined) this.crawlDelays.set(new URL(origin).host, rules.crawlDelay);
      return rules;
    } catch (err) {
      if (err instanceof CrawlError && err.code === 'HTTP_STATUS' && err.status! >= 400 && err.status! < 500)
        return ALLOW_ALL;
      if (err instanceof CrawlError && err.code === 'TOO_MANY_REDIRECTS') return ALLOW_ALL;
      return { unreachable: err instanceof Error ? err.message : String(err) };
    } finally {
      release();
    }
  }

  private isIntranet(host: string): boolean {
    const h = host.toLowerCase().replace(/^\[|\]$/g, '');
    return this.settings.intranet_hosts.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1)) : p === h));
  }

  /** Wait for this host's next request slot (requests_per_second, or the site's crawl-delay). */
  private async slot(url: URL): Promise<void> {
    const delayS = this.crawlDelays.get(url.host) ?? 0;
    const interval = Math.max(1000 / this.settings.requests_per_second, Math.min(delayS, MAX_CRAWL_DELAY_S) * 1000);
    const now = Date.now();
    const at = Math.max(now, this.nextSlot.get(url.host) ?? 0);
    this.nextSlot.set(url.host, at + interval);
    if (at > now) await sleep(at - now, this.signal);
  }
}

/**
 * A signal aborted with `parent` (or after `ms`), and its release. Work on the run's long-lived
 * signal goes through one of these: the listeners that requests and extraction jobs leave on the
 * signal they are given die with it (AbortSignal.any keeps its own on the parent on Node 20).
 */
export function timedSignal(parent: AbortSignal, ms?: number): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  const timer = ms === undefined ? undefined : setTimeout(() => controller.abort(new Error('timeout')), ms);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
