/**
 * Service configuration: parsed once at start from environment variables with
 * a valibot schema. Nothing else in the service reads `process.env`; every
 * module receives the typed `Config` (or the part it needs) from `main.ts`.
 */
import { availableParallelism } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import * as v from 'valibot';

const intFromEnv = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, `${name} must be a whole number`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

const boolFromEnv = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], `${name} must be true or false`),
    v.transform((s) => ['1', 'true', 'yes', 'on'].includes(s)),
  );

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const MB = 1_000_000;

/** Search analytics (src/analytics/): not recorded, recorded with the account, or without it. */
export const ANALYTICS_MODES = ['off', 'on', 'anonymous'] as const;
export type AnalyticsMode = (typeof ANALYTICS_MODES)[number];

/** The budgets of one search (src/search/limits.ts; README, Search budgets). */
export interface SearchLimits {
  /** SEARCH_MAX_CLAUSES: words and phrases of a query after analysis. */
  maxClauses: number;
  /** SEARCH_MAX_TERMS: index terms the words and phrases expand into (alternatives, compound parts). */
  maxTerms: number;
  /**
   * SEARCH_MAX_PLANNED_WORK: work units of the query if nothing were pruned (every postings block
   * of its terms, weighted by its clauses: engine/query/budget.ts).
   */
  maxPlannedWork: number;
  /** SEARCH_MAX_WORK: work units a search may spend (postings blocks decoded, weighted by its clauses). */
  maxWork: number;
  /** SEARCH_TIME_BUDGET_MS: milliseconds the query may run before it stops. */
  timeBudgetMs: number;
}

/** Defaults of the SEARCH_* budget variables. */
export const DEFAULT_SEARCH_LIMITS: Readonly<SearchLimits> = Object.freeze({
  maxClauses: 1024,
  maxTerms: 2048,
  maxPlannedWork: 400_000,
  maxWork: 100_000,
  timeBudgetMs: 1000,
});

/** The environment variables the service understands, with their defaults. */
export const EnvSchema = v.object({
  PORT: v.optional(intFromEnv('PORT', 0, 65535), '8080'),
  HOST: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'HOST must not be empty')), '127.0.0.1'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'DATA_DIR must not be empty')), './data'),
  ADMIN_KEY: v.optional(v.pipe(v.string(), v.minLength(16, 'ADMIN_KEY must have at least 16 characters'))),
  COMMIT_INTERVAL_MS: v.optional(intFromEnv('COMMIT_INTERVAL_MS', 10, 7_200_000), '1000'),
  MERGE_IDLE_MS: v.optional(intFromEnv('MERGE_IDLE_MS', 0, 86_400_000), '30000'),
  SEARCH_THREADS: v.optional(intFromEnv('SEARCH_THREADS', 0, 64)),
  SEARCH_ACCOUNT_CONCURRENCY: v.optional(intFromEnv('SEARCH_ACCOUNT_CONCURRENCY', 1, 64)),
  SEARCH_CHEAP_WORDS: v.optional(intFromEnv('SEARCH_CHEAP_WORDS', 1, 4096), '16'),
  SEARCH_MAX_CLAUSES: v.optional(intFromEnv('SEARCH_MAX_CLAUSES', 1, 65_536), String(DEFAULT_SEARCH_LIMITS.maxClauses)),
  SEARCH_MAX_TERMS: v.optional(intFromEnv('SEARCH_MAX_TERMS', 1, 1_000_000), String(DEFAULT_SEARCH_LIMITS.maxTerms)),
  SEARCH_MAX_PLANNED_WORK: v.optional(
    intFromEnv('SEARCH_MAX_PLANNED_WORK', 1, 1_000_000_000_000),
    String(DEFAULT_SEARCH_LIMITS.maxPlannedWork),
  ),
  SEARCH_MAX_WORK: v.optional(
    intFromEnv('SEARCH_MAX_WORK', 1, 1_000_000_000_000),
    String(DEFAULT_SEARCH_LIMITS.maxWork),
  ),
  SEARCH_TIME_BUDGET_MS: v.optional(
    intFromEnv('SEARCH_TIME_BUDGET_MS', 1, 3_600_000),
    String(DEFAULT_SEARCH_LIMITS.timeBudgetMs),
  ),
  INDEXING_API_MAX_BINARY_BYTES: v.optional(
    intFromEnv('INDEXING_API_MAX_BINARY_BYTES', 1, 2_000_000_000),
    String(100 * MB),
  ),
  MAX_REQUEST_BYTES: v.optional(intFromEnv('MAX_REQUEST_BYTES', 1024, 4_000_000_000)),
  REQUEST_BODY_BUDGET_BYTES: v.optional(
    intFromEnv('REQUEST_BODY_BUDGET_BYTES', 65_536, 64_000_000_000),
    String(256 * 1024 * 1024),
  ),
  REQUEST_BODY_WAIT_MS: v.optional(intFromEnv('REQUEST_BODY_WAIT_MS', 0, 600_000), '10000'),
  HTTP_MAX_HEADER_BYTES: v.optional(intFromEnv('HTTP_MAX_HEADER_BYTES', 8192, 1_048_576), '81920'),
  EXTRACT_WORKER_HEAP_MB: v.optional(intFromEnv('EXTRACT_WORKER_HEAP_MB', 64, 65_536), '1024'),
  EXTRACT_INFLATE_BUDGET_BYTES: v.optional(
    intFromEnv('EXTRACT_INFLATE_BUDGET_BYTES', 1_048_576, 64_000_000_000),
    String(512 * 1024 * 1024),
  ),
  LOG_LEVEL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`),
    ),
    'info',
  ),
  STATE_COMPACT_BYTES: v.optional(intFromEnv('STATE_COMPACT_BYTES', 4096), String(16 * 1024 * 1024)),
  WEB_SEARCH_DEFAULT_MODE: v.optional(
    v.picklist(['search', 'context', 'engine2'], 'WEB_SEARCH_DEFAULT_MODE must be search, context or engine2'),
    'search',
  ),
  BRAVE_API_KEY: v.optional(v.string()),
  BRAVE_BASE_URL: v.optional(v.pipe(v.string(), v.url('BRAVE_BASE_URL must be a URL')), 'https://api.search.brave.com'),
  SEARXNG_BASE_URL: v.optional(v.pipe(v.string(), v.url('SEARXNG_BASE_URL must be a URL'))),
  CRAWLER_ALLOW_PRIVATE: v.optional(boolFromEnv('CRAWLER_ALLOW_PRIVATE'), 'false'),
  CRAWLER_USER_AGENT: v.optional(v.string()),
  CRAWLER_MAX_BYTES: v.optional(intFromEnv('CRAWLER_MAX_BYTES', 1024, 100_000_000), '5000000'),
  CRAWLER_MAX_REDIRECTS: v.optional(intFromEnv('CRAWLER_MAX_REDIRECTS', 0, 10), '5'),
  CRAWLER_CONCURRENCY: v.optional(intFromEnv('CRAWLER_CONCURRENCY', 1, 256), '16'),
  CRAWLER_PAGE_TIMEOUT_MS: v.optional(intFromEnv('CRAWLER_PAGE_TIMEOUT_MS', 100, 120_000), '8000'),
  WEB_SEARCH_CONTENT_CHARS: v.optional(intFromEnv('WEB_SEARCH_CONTENT_CHARS', 100, 10_000_000), '6000'),
  WEB_SEARCH_DEEP_CONTENT_CHARS: v.optional(intFromEnv('WEB_SEARCH_DEEP_CONTENT_CHARS', 100, 10_000_000), '100000'),
  LLM_BASE_URL: v.optional(v.pipe(v.string(), v.trim(), v.url('LLM_BASE_URL must be a URL'))),
  LLM_API_KEY: v.optional(v.string()),
  LLM_MODELS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[^,\s]+(\s*,\s*[^,\s]+)*$/, 'LLM_MODELS must be a comma-separated list of model ids'),
    ),
  ),
  LLM_TIMEOUT_MS: v.optional(intFromEnv('LLM_TIMEOUT_MS', 100, 3_600_000), '120000'),
  CHAT_MAX_TOOL_ROUNDS: v.optional(intFromEnv('CHAT_MAX_TOOL_ROUNDS', 0, 16), '4'),
  CHAT_SEARCH_RESULTS: v.optional(intFromEnv('CHAT_SEARCH_RESULTS', 1, 50), '8'),
  FILES_MAX_BYTES: v.optional(intFromEnv('FILES_MAX_BYTES', 1, 1_000_000_000), String(25 * MB)),
  FILES_CONTEXT_CHARS: v.optional(intFromEnv('FILES_CONTEXT_CHARS', 500, 10_000_000), '12000'),
  SESSION_IDLE_MINUTES: v.optional(intFromEnv('SESSION_IDLE_MINUTES', 1, 525_600), '720'),
  SESSION_MAX_HOURS: v.optional(intFromEnv('SESSION_MAX_HOURS', 1, 8_760), '168'),
  TRUST_PROXY: v.optional(boolFromEnv('TRUST_PROXY'), 'false'),
  AUDIT_RETENTION_DAYS: v.optional(intFromEnv('AUDIT_RETENTION_DAYS', 0, 36_500), '365'),
  ANALYTICS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(ANALYTICS_MODES, `ANALYTICS must be one of ${ANALYTICS_MODES.join(', ')}`),
    ),
    'anonymous',
  ),
  ANALYTICS_RETENTION_DAYS: v.optional(intFromEnv('ANALYTICS_RETENTION_DAYS', 0, 36_500), '90'),
  PASSWORD_SIGNIN: v.optional(boolFromEnv('PASSWORD_SIGNIN'), 'true'),
  OIDC_ISSUER: v.optional(v.pipe(v.string(), v.trim(), v.url('OIDC_ISSUER must be a URL'))),
  OIDC_CLIENT_ID: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  OIDC_CLIENT_SECRET: v.optional(v.string()),
  OIDC_SCOPES: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/(^|\s)openid(\s|$)/, 'OIDC_SCOPES must include openid')),
    'openid email profile',
  ),
  OIDC_ALLOWED_DOMAINS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[^,\s@]+(\s*,\s*[^,\s@]+)*$/, 'OIDC_ALLOWED_DOMAINS must be a comma-separated list of domains'),
    ),
  ),
  OIDC_GROUPS_CLAIM: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), 'groups'),
  OIDC_ADMIN_GROUPS: v.optional(v.string()),
  OIDC_DEVELOPER_GROUPS: v.optional(v.string()),
  OIDC_LABEL: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(60)), 'Single sign-on'),
  PUBLIC_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.url('PUBLIC_URL must be a URL'),
      v.regex(/^https?:\/\/[^/?#@]+\/?$/i, 'PUBLIC_URL must be an http(s) origin such as https://search.example.com'),
    ),
  ),
  CONNECTOR_SECRET: v.optional(
    v.pipe(v.string(), v.minLength(16, 'CONNECTOR_SECRET must have at least 16 characters')),
  ),
  METRICS_TOKEN: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(16, 'METRICS_TOKEN must have at least 16 characters')),
  ),
  BACKUP_DIR: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'BACKUP_DIR must not be empty'))),
  CORS_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^(https?:\/\/[^/?#@\s,]+(\s*,\s*https?:\/\/[^/?#@\s,]+)*)?$/i,
        'CORS_ORIGINS must be a comma-separated list of http(s) origins such as https://app.example.com',
      ),
    ),
  ),
});

/** Default SEARCH_THREADS: one per core up to 4; none on a single core (the main thread searches). */
export function defaultSearchThreads(): number {
  const cores = availableParallelism();
  return cores < 2 ? 0 : Math.min(4, cores);
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Operator master key; when absent the server generates one on first start. */
  adminKey?: string;
  commitIntervalMs: number;
  /** Quiet time after which the index is compacted (idle merges down to one segment); 0 = never. */
  mergeIdleMs: number;
  /** Worker threads running searches (src/search/pool.ts); 0 = on the main thread. */
  searchThreads: number;
  /** Budgets and scheduling of searches (src/search/limits.ts, scheduler.ts). */
  search: {
    limits: SearchLimits;
    /** Searches of one account running at once on the search threads; unset: the threads but one, at least 1. */
    accountConcurrency?: number;
    /** Queries of more words than this run in the expensive lane. */
    cheapWords: number;
  };
  /** The spec's `indexing_api_max_binary_bytes`: decoded size limit of `binary_base64`. */
  maxBinaryBytes: number;
  /** Largest accepted request body; default fits one maximal Base64 binary plus 16 MiB. */
  maxRequestBytes: number;
  /** Request body bytes held in memory across all requests at once; past it requests wait (src/http/admission.ts). */
  requestBodyBudgetBytes: number;
  /** How long a request waits for room in that budget before it is answered 503 with Retry-After. */
  requestBodyWaitMs: number;
  /** Largest request line plus header fields (Node's maxHeaderSize); beyond it 431. */
  httpMaxHeaderBytes: number;
  /** Extraction workers (extractors/pool.ts). */
  extraction: {
    /** V8 heap cap of each worker (resourceLimits); a document that needs more fails alone. */
    workerHeapMb: number;
    /** Bytes all workers together may decompress per document at once (split evenly between them). */
    inflateBudgetBytes: number;
  };
  logLevel: LogLevel;
  /** Control-plane log size that triggers compaction into a snapshot. */
  stateCompactBytes: number;
  webSearch: {
    defaultMode: 'search' | 'context' | 'engine2';
    braveApiKey?: string;
    braveBaseUrl: string;
    searxngBaseUrl?: string;
    allowPrivateAddresses: boolean;
    userAgent?: string;
    /** Largest page body the crawler reads (decompressed bytes); longer HTML/text is cut, longer PDF skipped. */
    crawlMaxBytes: number;
    /** Redirects followed per page (each hop re-checked against the address policy). */
    crawlMaxRedirects: number;
    /** Pages fetched at the same time by one request. */
    crawlConcurrency: number;
    /** Upper bound for one page fetch, below the request's own timeout. */
    crawlPageTimeoutMs: number;
    /** Characters of page content per result without `deep_search`. */
    contentChars: number;
    /** Characters of page content per result with `deep_search`. */
    deepContentChars: number;
  };
  /** Chat-completion API (src/chat/). */
  chat: {
    /** OpenAI-compatible upstream (`.../v1`); unset: only the embedded extractive model. */
    llmBaseUrl?: string;
    llmApiKey?: string;
    /** Model ids the upstream serves (LLM_MODELS); the first is the default model. */
    llmModels: string[];
    llmTimeoutMs: number;
    /** Tool rounds before the model must answer without tools. */
    maxToolRounds: number;
    /** Results one serviceSearch call returns to the model. */
    searchResults: number;
  };
  /** Browser sign-in and sessions (src/sessions/, src/web/). */
  web: {
    /** Idle timeout and absolute lifetime of a browser session (sessions.ts SessionPolicy). */
    session: { idleMs: number; maxMs: number };
    /** Trust X-Forwarded-For/-Proto/-Host from a reverse proxy (client address, https, origin). */
    trustProxy: boolean;
    /** Origin used in sign-in links; unset: the origin the request came to. */
    publicUrl?: string;
    /** Whether local passwords may sign in (sign-in links included); SSO-only installations turn it off. */
    passwordSignIn: boolean;
    /** Single sign-on with OpenID Connect (src/sessions/oidc.ts); absent when OIDC_ISSUER is unset. */
    oidc?: OidcConfig;
  };
  /** Days the audit log keeps (src/audit/); 0 keeps everything. */
  auditRetentionDays: number;
  /** Search analytics and answer feedback (src/analytics/). */
  analytics: {
    mode: AnalyticsMode;
    /** Days the records are kept; 0 keeps everything. */
    retentionDays: number;
  };
  /** Operator secret the connectors' credentials are encrypted with (src/connectors/secrets.ts); unset: none stored. */
  connectorSecret?: string;
  /** Directory under which `POST /api/admin/backups` writes backups; absent: that endpoint is refused. */
  backupDir?: string;
  /** Origins allowed to call the API from a browser (CORS_ORIGINS, lower case); empty: CORS is off. */
  corsOrigins: string[];
  /** Bearer token a Prometheus scraper presents at GET /metrics; unset: /metrics is not served. */
  metricsToken?: string;
  /** Uploaded chat files (src/files/). */
  files: {
    maxBytes: number;
    /** Characters of attached-file text given to the model per completion. */
    contextChars: number;
  };
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  /** Lowercase email domains allowed to sign in; empty: any verified email. */
  allowedDomains: string[];
  /** ID-token claim holding the person's groups. */
  groupsClaim: string;
  /** Groups that give the administrator / developer role; both empty: roles are not managed by the provider. */
  adminGroups: string[];
  developerGroups: string[];
  /** Label of the sign-in button. */
  label: string;
}

const commaList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** Whether one of two directories is the other or lies under it. */
function overlaps(a: string, b: string): boolean {
  const under = (dir: string, path: string) => {
    const rel = relative(resolve(dir), resolve(path));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  return under(a, b) || under(b, a);
}

/** Variables whose values never appear in messages or logs. */
export const SECRET_VARIABLES = new Set([
  'ADMIN_KEY',
  'METRICS_TOKEN',
  'BRAVE_API_KEY',
  'LLM_API_KEY',
  'OIDC_CLIENT_SECRET',
  'CONNECTOR_SECRET',
]);
/**
 * Upstream base URLs: the standard fetch refuses URLs with credentials and its error quotes the
 * whole URL (it would reach clients in 502 answers), so `user:password@` is refused at start,
 * and a value holding an `@` is never echoed.
 */
const BASE_URL_VARIABLES = ['BRAVE_BASE_URL', 'SEARXNG_BASE_URL', 'LLM_BASE_URL'] as const;
const isBaseUrlVariable = (key: string) => (BASE_URL_VARIABLES as readonly string[]).includes(key);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse the environment; throws ConfigError with one readable line per bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(
    Object.keys(EnvSchema.entries)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const key = String(issue.path?.[0]?.key ?? '?');
      const hidden = SECRET_VARIABLES.has(key) || (isBaseUrlVariable(key) && String(present[key] ?? '').includes('@'));
      const shown = hidden ? '(value hidden)' : `(got ${JSON.stringify(present[key] ?? '')})`;
      return `  ${key}: ${issue.message} ${shown}`;
    });
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.output;
  for (const key of BASE_URL_VARIABLES) {
    const url = e[key] === undefined || !URL.canParse(e[key]) ? undefined : new URL(e[key]);
    if (url && (url.username || url.password)) {
      throw new ConfigError(
        `invalid configuration:\n  ${key}: must not contain credentials (user:password@): requests cannot carry them (value hidden)`,
      );
    }
  }
  if (e.LLM_BASE_URL !== undefined && !e.LLM_MODELS) {
    throw new ConfigError(
      'invalid configuration:\n  LLM_MODELS: must list the model ids the upstream serves when LLM_BASE_URL is set (got "")',
    );
  }
  if (e.OIDC_ISSUER !== undefined && e.OIDC_CLIENT_ID === undefined) {
    throw new ConfigError('invalid configuration:\n  OIDC_CLIENT_ID: must be set when OIDC_ISSUER is set (got "")');
  }
  if (!e.PASSWORD_SIGNIN && e.OIDC_ISSUER === undefined) {
    throw new ConfigError(
      'invalid configuration:\n  PASSWORD_SIGNIN: can be turned off only when single sign-on is configured (OIDC_ISSUER) (got "false")',
    );
  }
  if (e.BACKUP_DIR !== undefined && overlaps(e.DATA_DIR, e.BACKUP_DIR)) {
    throw new ConfigError(
      `invalid configuration:\n  BACKUP_DIR: must lie outside DATA_DIR and not contain it (got ${JSON.stringify(e.BACKUP_DIR)})`,
    );
  }
  const maxBinaryBytes = e.INDEXING_API_MAX_BINARY_BYTES;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    adminKey: e.ADMIN_KEY,
    commitIntervalMs: e.COMMIT_INTERVAL_MS,
    mergeIdleMs: e.MERGE_IDLE_MS,
    searchThreads: e.SEARCH_THREADS ?? defaultSearchThreads(),
    search: {
      limits: {
        maxClauses: e.SEARCH_MAX_CLAUSES,
        maxTerms: e.SEARCH_MAX_TERMS,
        maxPlannedWork: e.SEARCH_MAX_PLANNED_WORK,
        maxWork: e.SEARCH_MAX_WORK,
        timeBudgetMs: e.SEARCH_TIME_BUDGET_MS,
      },
      accountConcurrency: e.SEARCH_ACCOUNT_CONCURRENCY,
      cheapWords: e.SEARCH_CHEAP_WORDS,
    },
    maxBinaryBytes,
    maxRequestBytes: e.MAX_REQUEST_BYTES ?? Math.ceil((maxBinaryBytes * 4) / 3) + 16 * 1024 * 1024,
    requestBodyBudgetBytes: e.REQUEST_BODY_BUDGET_BYTES,
    requestBodyWaitMs: e.REQUEST_BODY_WAIT_MS,
    httpMaxHeaderBytes: e.HTTP_MAX_HEADER_BYTES,
    extraction: { workerHeapMb: e.EXTRACT_WORKER_HEAP_MB, inflateBudgetBytes: e.EXTRACT_INFLATE_BUDGET_BYTES },
    logLevel: e.LOG_LEVEL,
    stateCompactBytes: e.STATE_COMPACT_BYTES,
    webSearch: {
      defaultMode: e.WEB_SEARCH_DEFAULT_MODE,
      braveApiKey: e.BRAVE_API_KEY,
      braveBaseUrl: e.BRAVE_BASE_URL,
      searxngBaseUrl: e.SEARXNG_BASE_URL,
      allowPrivateAddresses: e.CRAWLER_ALLOW_PRIVATE,
      userAgent: e.CRAWLER_USER_AGENT,
      crawlMaxBytes: e.CRAWLER_MAX_BYTES,
      crawlMaxRedirects: e.CRAWLER_MAX_REDIRECTS,
      crawlConcurrency: e.CRAWLER_CONCURRENCY,
      crawlPageTimeoutMs: e.CRAWLER_PAGE_TIMEOUT_MS,
      contentChars: e.WEB_SEARCH_CONTENT_CHARS,
      deepContentChars: e.WEB_SEARCH_DEEP_CONTENT_CHARS,
    },
    chat: {
      llmBaseUrl: e.LLM_BASE_URL,
      llmApiKey: e.LLM_API_KEY,
      llmModels: e.LLM_MODELS ? e.LLM_MODELS.split(',').map((m) => m.trim()) : [],
      llmTimeoutMs: e.LLM_TIMEOUT_MS,
      maxToolRounds: e.CHAT_MAX_TOOL_ROUNDS,
      searchResults: e.CHAT_SEARCH_RESULTS,
    },
    web: {
      session: { idleMs: e.SESSION_IDLE_MINUTES * 60_000, maxMs: e.SESSION_MAX_HOURS * 3_600_000 },
      trustProxy: e.TRUST_PROXY,
      publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
      passwordSignIn: e.PASSWORD_SIGNIN,
      oidc:
        e.OIDC_ISSUER === undefined
          ? undefined
          : {
              issuer: e.OIDC_ISSUER,
              clientId: e.OIDC_CLIENT_ID!,
              clientSecret: e.OIDC_CLIENT_SECRET,
              scopes: e.OIDC_SCOPES,
              allowedDomains: commaList(e.OIDC_ALLOWED_DOMAINS).map((d) => d.toLowerCase()),
              groupsClaim: e.OIDC_GROUPS_CLAIM,
              adminGroups: commaList(e.OIDC_ADMIN_GROUPS),
              developerGroups: commaList(e.OIDC_DEVELOPER_GROUPS),
              label: e.OIDC_LABEL,
            },
    },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    analytics: { mode: e.ANALYTICS, retentionDays: e.ANALYTICS_RETENTION_DAYS },
    files: { maxBytes: e.FILES_MAX_BYTES, contextChars: e.FILES_CONTEXT_CHARS },
    connectorSecret: e.CONNECTOR_SECRET,
    backupDir: e.BACKUP_DIR,
    corsOrigins: commaList(e.CORS_ORIGINS).map((o) => o.toLowerCase()),
    metricsToken: e.METRICS_TOKEN,
  };
}
