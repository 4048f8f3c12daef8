/**
 * robots.txt as RFC 9309 defines it, for one crawler (its product token):
 * - lines are `key: value`, keys case-insensitive, `#` starts a comment, unknown or malformed
 *   lines are ignored; the first ROBOTS_MAX_BYTES (500 KiB, the RFC's minimum) are read;
 * - a group is one or more `user-agent` lines followed by rules; a `user-agent` line after a
 *   rule starts a new group; rules before any `user-agent` line belong to no group;
 * - the groups whose user-agent names our product token (case-insensitively; the value's
 *   leading `[A-Za-z_-]` characters) are combined; if there is none, those of `*`; if there is
 *   none either, everything is allowed;
 * - `allow` / `disallow` values are path patterns matched against the URL's path and query:
 *   `*` any characters, `$` at the end anchors; the matching rule with the longest pattern wins,
 *   `allow` on a tie; no matching rule allows; an empty value is no rule; `/robots.txt` is always
 *   allowed; both sides are compared with percent-encoding normalised (unreserved characters
 *   decoded, other escapes upper-cased, non-ASCII encoded as UTF-8);
 * - `sitemap` lines (any place) and the non-standard `crawl-delay` (seconds, of the chosen
 *   groups) are read as well.
 * Fetch outcomes (website/fetcher.ts): a 4xx status means no robots.txt (allow all), a 5xx or
 * an unreachable server means disallow all, as the RFC requires.
 */

export const ROBOTS_MAX_BYTES = 500 * 1024;
/** Rules longer than this (in characters) are ignored, which bounds the matching cost. */
const MAX_PATTERN_CHARS = 2048;

export interface RobotsRules {
  allowed(pathAndQuery: string): boolean;
  /** Seconds between requests the site asks for (crawl-delay), if any. */
  crawlDelay?: number;
  sitemaps: string[];
}

interface Rule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay?: number;
}

export const ALLOW_ALL: RobotsRules = { allowed: () => true, sitemaps: [] };
export const DISALLOW_ALL: RobotsRules = { allowed: (p) => p === '/robots.txt', sitemaps: [] };

/** The product token of a User-Agent string (`EnterpriseSearchCrawler/0.1 (...)` -> `EnterpriseSearchCrawler`). */
export function productToken(userAgent: string): string {
  return /^[A-Za-z_-]*/.exec(userAgent.trim())![0] || 'EnterpriseSearchCrawler';
}

export function parseRobots(text: string, token: string): RobotsRules {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | undefined;
  let inRules = false;
  const body = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).slice(0, ROBOTS_MAX_BYTES);
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash >= 0 ? raw.slice(0, hash) : raw;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || inRules) groups.push((current = { agents: [], rules: [] }));
      inRules = false;
      current.agents.push(value === '*' ? '*' : (/^[A-Za-z_-]*/.exec(value)![0] || '').toLowerCase());
    } else if (key === 'allow' || key === 'disallow') {
      if (!current) continue;
      inRules = true;
      if (value !== '' && value.length <= MAX_PATTERN_CHARS)
        current.rules.push({ allow: key === 'allow', pattern: normalise(value) });
    } else if (key === 'crawl-delay') {
      if (!current) continue;
      inRules = true;
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelay = seconds;
    } else if (key === 'sitemap' && value !== '') sitemaps.push(value);
  }
  const own = groups.filter((g) => g.agents.includes(token.toLowerCase()));
  const chosen = own.length > 0 ? own : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelay).filter((d): d is number => d !== undefined);
  return {
    allowed: (pathAndQuery) => isAllowed(rules, pathAndQuery),
    ...(delays.length > 0 ? { crawlDelay: Math.max(...delays) } : {}),
    sitemaps,
  };
}

function isAllowed(rules: readonly Rule[], pathAndQuery: string): boolean {
  const path = normalise(pathAndQuery || '/');
  if (path === '/robots.txt') return true;
  let best: Rule | undefined;
  for (const rule of rules) {
    if (
      best &&
      (rule.pattern.length < best.pattern.length || (rule.pattern.length === best.pattern.length && best.allow))
    )
      continue;
    if (matches(rule.pattern, path)) best = rule;
  }
  return best ? best.allow : true;
}

/**
 * Whether `pattern` matches a prefix of `path` (the whole path when it ends in `$`): `*` any run
 * of characters. Greedy matching with backtracking to the last `*` (O(pattern × path) at worst).
 */
export function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : pattern;
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < path.length) {
    if (i === p.length && !anchored) return true;
    if (i < p.length && p[i] === '*') {
      star = i++;
      mark = j;
    } else if (i < p.length && p[i] === path[j]) {
      i++;
      j++;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (i < p.length && p[i] === '*') i++;
  return i === p.length;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encoding normalised: unreserved characters decoded, other escapes upper-cased, non-ASCII encoded. */
export function normalise(s: string): string {
  let out = '';
  for (let k = 0; k < s.length; k++) {
    const ch = s[k];
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(s.slice(k + 1, k + 3))) {
      const decoded = String.fromCharCode(parseInt(s.slice(k + 1, k + 3), 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${s.slice(k + 1, k + 3).toUpperCase()}`;
      k += 2;
    } else if (ch.charCodeAt(0) > 0x7e || ch.charCodeAt(0) < 0x20) {
      const cp = s.codePointAt(k)!;
      if (cp > 0xffff) k++;
      for (const b of new TextEncoder().encode(String.fromCodePoint(cp)))
        out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    } else out += ch;
  }
  return out;
}
