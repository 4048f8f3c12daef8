/**
 * URL helpers of web search: which provider URLs are page addresses (absolute
 * http(s) only), the `sites` restriction (host names parsed from what the
 * caller wrote, `site:` operators added to the query, hits filtered by host
 * with subdomains allowed, operators kept within the provider's query
 * limits) and the normalised URL used to remove duplicates across queries.
 */
import type { QueryLimits } from './providers/types.ts';

/** The host name of a `sites` entry (`example.com`, `https://www.example.com/path`, `*.example.com`), or null. */
export function siteHost(entry: string): string | null {
  let s = entry.trim().toLowerCase();
  if (s.startsWith('*.')) s = s.slice(2);
  if (s.startsWith('site:')) s = s.slice(5);
  if (!s) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(s) ? s : `http://${s}`).hostname.replace(/\.$/, '');
    return /^[a-z0-9_.-]+$|^\[[0-9a-f:.]+\]$/.test(host) ? host.replace(/^www\./, '') : null;
  } catch {
    return null;
  }
}

/** True for an absolute http(s) URL with a host: the only page addresses the endpoint answers with. */
export function isWebUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url.trim())) return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** True when `url`'s host is one of `hosts` or a subdomain of one (an empty list allows every host). */
export function hostAllowed(url: string, hosts: readonly string[]): boolean {
  if (hosts.length === 0) return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

/** The query with `site:` operators for `hosts` (OR-ed when several); see siteQueries for provider limits. */
export function withSites(query: string, hosts: readonly string[]): string {
  if (hosts.length === 0) return query;
  const ops = hosts.map((h) => `site:${h}`);
  return `${query} ${ops.length === 1 ? ops[0] : `(${ops.join(' OR ')})`}`;
}

/** Provider calls one query's `site:` operators may be split over; beyond it the host filter alone restricts. */
const MAX_SITE_CALLS = 4;

const words = (q: string) => q.trim().split(/\s+/).filter(Boolean).length;
const fits = (q: string, limits?: QueryLimits) => !limits || (q.length <= limits.chars && words(q) <= limits.words);

/** `query` cut to the provider's limits: its first `words` words, at most `chars` characters. */
function clipQuery(query: string, limits?: QueryLimits): string {
  if (fits(query, limits) || !limits) return query;
  return query.trim().split(/\s+/).slice(0, limits.words).join(' ').slice(0, limits.chars).trim();
}

/**
 * The provider queries for `query` (cut to the provider's limits) restricted to `hosts`: one carrying every `site:` operator
 * when it fits the provider's limits; else the hosts split in order over at most MAX_SITE_CALLS
 * queries that each fit; else the query alone (hits are filtered by host either way).
 */
export function siteQueries(rawQuery: string, hosts: readonly string[], limits?: QueryLimits): string[] {
  const query = clipQuery(rawQuery, limits);
  if (hosts.length === 0 || fits(withSites(query, hosts), limits)) return [withSites(query, hosts)];
  const out: string[] = [];
  let group: string[] = [];
  for (const h of hosts) {
    if (fits(withSites(query, [...group, h]), limits)) {
      group.push(h);
      continue;
    }
    if (group.length === 0 || out.length + 1 >= MAX_SITE_CALLS || !fits(withSites(query, [h]), limits)) return [query];
    out.push(withSites(query, group));
    group = [h];
  }
  out.push(withSites(query, group));
  return out;
}

const TRACKING = /^(utm_\w+|gclid|fbclid|mc_cid|mc_eid|ref_src)$/i;

/**
 * Normalised form for duplicate detection: lower-case scheme and host without
 * `www.`, default port and fragment dropped, tracking parameters removed,
 * remaining parameters sorted, trailing slash of the path removed. http and
 * https count as the same page.
 */
export function normaliseUrl(raw: string): string {
  try {
    const u = new URL(raw);
    const params = [...u.searchParams]
      .filter(([k]) => !TRACKING.test(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
    const host = u.hostname.replace(/^www\./, '');
    const port = u.port && !['80', '443'].includes(u.port) ? `:${u.port}` : '';
    const path = u.pathname.replace(/\/+$/, '') || '';
    return `${host}${port}${path}${query}`;
  } catch {
    return raw.trim();
  }
}
