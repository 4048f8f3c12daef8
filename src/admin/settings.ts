/**
 * The effective configuration as the dashboard and `GET /api/admin/settings`
 * show it (domain, no HTTP): every variable of the configuration schema with
 * the value the server runs with (defaults applied), never a secret: secret
 * variables (src/config.ts SECRET_VARIABLES) only say whether they are set.
 * The table below names where each variable's value lives in `Config`; a
 * variable missing from it is a type error, so the page cannot drift from
 * the schema. Also the upstreams the server talks to and whether each one is
 * configured (checks.ts tests them).
 */
import * as v from 'valibot';
import { VARIABLE_HELP, type Variable } from '../cli.ts';
import { EnvSchema, SECRET_VARIABLES, type Config } from '../config.ts';
import { configuredModes } from '../websearch/service.ts';

type Value = string | number | boolean | null;

const list = (xs: readonly string[]) => (xs.length === 0 ? null : xs.join(','));

const VALUES: Record<Variable, (c: Config) => Value | undefined> = {
  PORT: (c) => c.port,
  HOST: (c) => c.host,
  DATA_DIR: (c) => c.dataDir,
  ADMIN_KEY: (c) => c.adminKey,
  COMMIT_INTERVAL_MS: (c) => c.commitIntervalMs,
  MERGE_IDLE_MS: (c) => c.mergeIdleMs,
  SEARCH_THREADS: (c) => c.searchThreads,
  SEARCH_ACCOUNT_CONCURRENCY: (c) => c.search.accountConcurrency,
  SEARCH_CHEAP_WORDS: (c) => c.search.cheapWords,
  SEARCH_MAX_CLAUSES: (c) => c.search.limits.maxClauses,
  SEARCH_MAX_TERMS: (c) => c.search.limits.maxTerms,
  SEARCH_MAX_PLANNED_WORK: (c) => c.search.limits.maxPlannedWork,
  SEARCH_MAX_WORK: (c) => c.search.limits.maxWork,
  SEARCH_TIME_BUDGET_MS: (c) => c.search.limits.timeBudgetMs,
  INDEXING_API_MAX_BINARY_BYTES: (c) => c.maxBinaryBytes,
  MAX_REQUEST_BYTES: (c) => c.maxRequestBytes,
  REQUEST_BODY_BUDGET_BYTES: (c) => c.requestBodyBudgetBytes,
  REQUEST_BODY_WAIT_MS: (c) => c.requestBodyWaitMs,
  HTTP_MAX_HEADER_BYTES: (c) => c.httpMaxHeaderBytes,
  EXTRACT_WORKER_HEAP_MB: (c) => c.extraction.workerHeapMb,
  EXTRACT_INFLATE_BUDGET_BYTES: (c) => c.extraction.inflateBudgetBytes,
  LOG_LEVEL: (c) => c.logLevel,
  STATE_COMPACT_BYTES: (c) => c.stateCompactBytes,
  WEB_SEARCH_DEFAULT_MODE: (c) => c.webSearch.defaultMode,
  BRAVE_API_KEY: (c) => c.webSearch.braveApiKey,
  BRAVE_BASE_URL: (c) => c.webSearch.braveBaseUrl,
  SEARXNG_BASE_URL: (c) => c.webSearch.searxngBaseUrl,
  CRAWLER_ALLOW_PRIVATE: (c) => c.webSearch.allowPrivateAddresses,
  CRAWLER_USER_AGENT: (c) => c.webSearch.userAgent,
  CRAWLER_MAX_BYTES: (c) => c.webSearch.crawlMaxBytes,
  CRAWLER_MAX_REDIRECTS: (c) => c.webSearch.crawlMaxRedirects,
  CRAWLER_CONCURRENCY: (c) => c.webSearch.crawlConcurrency,
  CRAWLER_PAGE_TIMEOUT_MS: (c) => c.webSearch.crawlPageTimeoutMs,
  WEB_SEARCH_CONTENT_CHARS: (c) => c.webSearch.contentChars,
  WEB_SEARCH_DEEP_CONTENT_CHARS: (c) => c.webSearch.deepContentChars,
  LLM_BASE_URL: (c) => c.chat.llmBaseUrl,
  LLM_API_KEY: (c) => c.chat.llmApiKey,
  LLM_MODELS: (c) => list(c.chat.llmModels),
  LLM_TIMEOUT_MS: (c) => c.chat.llmTimeoutMs,
  CHAT_MAX_TOOL_ROUNDS: (c) => c.chat.maxToolRounds,
  CHAT_SEARCH_RESULTS: (c) => c.chat.searchResults,
  FILES_MAX_BYTES: (c) => c.files.maxBytes,
  FILES_CONTEXT_CHARS: (c) => c.files.contextChars,
  SESSION_IDLE_MINUTES: (c) => c.web.session.idleMs / 60_000,
  SESSION_MAX_HOURS: (c) => c.web.session.maxMs / 3_600_000,
  TRUST_PROXY: (c) => c.web.trustProxy,
  AUDIT_RETENTION_DAYS: (c) => c.auditRetentionDays,
  ANALYTICS: (c) => c.analytics.mode,
  ANALYTICS_RETENTION_DAYS: (c) => c.analytics.retentionDays,
  PASSWORD_SIGNIN: (c) => c.web.passwordSignIn,
  OIDC_ISSUER: (c) => c.web.oidc?.issuer,
  OIDC_CLIENT_ID: (c) => c.web.oidc?.clientId,
  OIDC_CLIENT_SECRET: (c) => c.web.oidc?.clientSecret,
  OIDC_SCOPES: (c) => c.web.oidc?.scopes,
  OIDC_ALLOWED_DOMAINS: (c) => (c.web.oidc ? list(c.web.oidc.allowedDomains) : undefined),
  OIDC_GROUPS_CLAIM: (c) => c.web.oidc?.groupsClaim,
  OIDC_ADMIN_GROUPS: (c) => (c.web.oidc ? list(c.web.oidc.adminGroups) : undefined),
  OIDC_DEVELOPER_GROUPS: (c) => (c.web.oidc ? list(c.web.oidc.developerGroups) : undefined),
  OIDC_LABEL: (c) => c.web.oidc?.label,
  PUBLIC_URL: (c) => c.web.publicUrl,
  CONNECTOR_SECRET: (c) => c.connectorSecret,
  CORS_ORIGINS: (c) => list(c.corsOrigins),
  METRICS_TOKEN: (c) => c.metricsToken,
  BACKUP_DIR: (c) => c.backupDir ?? null,
};

export interface SettingView {
  name: Variable;
  /** The effective value; null when unset, and always null for a secret. */
  value: Value;
  secret: boolean;
  /** Whether a value is in effect (for a secret: whether it is set). */
  set: boolean;
  description: string;
}

export function effectiveSettings(config: Config): SettingView[] {
  return (Object.keys(EnvSchema.entries) as Variable[]).map((name) => {
    const value = VALUES[name](config) ?? null;
    const secret = SECRET_VARIABLES.has(name);
    return { name, value: secret ? null : value, secret, set: value !== null, description: VARIABLE_HELP[name] };
  });
}

export type UpstreamId = 'llm' | 'brave' | 'searxng';
export const UPSTREAMS = ['llm', 'brave', 'searxng'] as const satisfies readonly UpstreamId[];

export interface UpstreamView {
  id: UpstreamId;
  name: string;
  configured: boolean;
  /** Base URL the server calls (never with credentials: config.ts refuses those). */
  endpoint: string | null;
  /** What it serves here: model ids (llm) or web-search modes (brave, searxng). */
  serves: string[];
}

/** The chat upstream and the web-search providers, and whether each one is configured. */
export function upstreams(config: Config): UpstreamView[] {
  const modes = configuredModes(config.webSearch);
  const brave = config.webSearch.braveApiKey !== undefined;
  return [
    {
      id: 'llm',
      name: 'LLM upstream',
      configured: config.chat.llmBaseUrl !== undefined,
      endpoint: config.chat.llmBaseUrl ?? null,
      serves: config.chat.llmModels,
    },
    {
      id: 'brave',
      name: 'Brave Search',
      configured: brave,
      endpoint: brave ? config.webSearch.braveBaseUrl : null,
      serves: modes.filter((m) => m !== 'engine2'),
    },
    {
      id: 'searxng',
      name: 'SearXNG',
      configured: config.webSearch.searxngBaseUrl !== undefined,
      endpoint: config.webSearch.searxngBaseUrl ?? null,
      serves: modes.filter((m) => m === 'engine2'),
    },
  ];
}

/** The body of POST /api/admin/settings/check: which upstream to call. */
export const CheckBody = v.strictObject({ target: v.picklist(UPSTREAMS) });
