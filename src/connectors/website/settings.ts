/**
 * Settings and credentials of the website connector (`intranet_online`):
 * - `start_urls` (1-100) and `sitemaps` (sitemap or sitemap-index URLs); with `robots_sitemaps`
 *   (default true) also the `Sitemap:` lines of the start hosts' robots.txt;
 * - scope: the hosts of the start URLs and sitemaps, plus `allowed_hosts`; `include` / `exclude`
 *   globs on the URL path (glob.ts: `/blog/**`, `*.pdf`);
 * - `intranet_hosts`: the SSRF allow-list: host names (or `*.suffix`) whose private, loopback or
 *   link-local addresses may be fetched; every other host must resolve to public addresses;
 *   cloud metadata endpoints are always refused;
 * - limits: `max_depth` (links followed from a start URL, default 5), `max_pages` per run
 *   (default 10,000), `requests_per_second` per host (default 2; a robots.txt crawl-delay slows
 *   it further), `concurrency` (default 4), `page_timeout_ms` (default 10,000), `max_page_bytes`
 *   (default 10 MB);
 * - `permissions`: `everyone` (default), or `paths`: a grant per URL path prefix, `default` for
 *   the rest (nobody unless given).
 * Credentials (optional): `{username, password}` (HTTP Basic) or `{bearer_token}`, sent only to
 * hosts in scope.
 */
import * as v from 'valibot';
import { globProblem } from '../glob.ts';
import { GrantSchema, PathRuleSchema } from '../grants.ts';

const WebUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.check((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'not an http(s) URL'),
  v.check((u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password), 'no credentials in URLs'),
);
const Host = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^(\*\.)?[a-z0-9._:[\]-]{1,253}$/, 'a host name, an IP address or *.suffix'),
);
const Glob = v.pipe(
  v.string(),
  v.check((p) => globProblem(p) === undefined, 'not a valid glob pattern'),
);
const int = (min: number, max: number, fallback: number) =>
  v.optional(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max)), fallback);

const Permissions = v.variant('mode', [
  v.strictObject({ mode: v.literal('everyone') }),
  v.strictObject({
    mode: v.literal('paths'),
    paths: v.pipe(v.array(PathRuleSchema), v.maxLength(1000)),
    default: v.optional(GrantSchema, { everyone: false, users: [], groups: [] }),
  }),
]);

export const WebsiteSettings = v.strictObject({
  start_urls: v.pipe(v.array(WebUrl), v.minLength(1), v.maxLength(100)),
  sitemaps: v.optional(v.pipe(v.array(WebUrl), v.maxLength(100)), []),
  robots_sitemaps: v.optional(v.boolean(), true),
  allowed_hosts: v.optional(v.pipe(v.array(Host), v.maxLength(100)), []),
  intranet_hosts: v.optional(v.pipe(v.array(Host), v.maxLength(100)), []),
  include: v.optional(v.pipe(v.array(Glob), v.maxLength(200)), []),
  exclude: v.optional(v.pipe(v.array(Glob), v.maxLength(200)), []),
  max_depth: int(0, 50, 5),
  max_pages: int(1, 1_000_000, 10_000),
  requests_per_second: v.optional(v.pipe(v.number(), v.minValue(0.01), v.maxValue(1000)), 2),
  concurrency: int(1, 32, 4),
  page_timeout_ms: int(500, 120_000, 10_000),
  max_page_bytes: int(1024, 100_000_000, 10_000_000),
  permissions: v.optional(Permissions, { mode: 'everyone' }),
});
export type WebsiteSettings = v.InferOutput<typeof WebsiteSettings>;

export const WebsiteCredentials = v.pipe(
  v.strictObject({
    username: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
    password: v.optional(v.pipe(v.string(), v.maxLength(1000))),
    bearer_token: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(10_000))),
  }),
  v.check(
    (c) => (c.bearer_token !== undefined) !== (c.username !== undefined && c.password !== undefined),
    'give either username and password, or bearer_token',
  ),
);
export type WebsiteCredentials = v.InferOutput<typeof WebsiteCredentials>;
