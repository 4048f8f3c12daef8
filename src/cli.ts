/**
 * Command-line flags of the server entry (src/main.ts, and the single executable built from it):
 * `--version` prints the version from package.json, `--help` a usage text listing every
 * configuration variable of `EnvSchema` with its default, `connector run <id>` runs one
 * connector on demand (src/connector-command.ts), and the operator commands (backup, restore,
 * stats, reindex, accounts and keys) are parsed by src/cli-commands.ts and run by
 * src/commands/run.ts. Without arguments the server starts.
 * The help text is derived from the schema, and `VARIABLE_HELP` must name every schema key
 * (a missing or stale entry is a type error), so the usage text cannot drift from the config.
 */
import pkg from '../package.json' with { type: 'json' };
import { COMMAND_USAGE, parseAdminCommand, UsageError, type AdminCommand } from './cli-commands.ts';
import { EnvSchema } from './config.ts';

export const VERSION: string = pkg.version;
const NAME = pkg.name;

export type Variable = keyof typeof EnvSchema.entries;

/** One line per configuration variable; the default shown comes from the schema. */
export const VARIABLE_HELP: Record<Variable, string> = {
  PORT: 'TCP port to listen on (0 picks a free one)',
  HOST: 'interface to listen on; 0.0.0.0 for all',
  DATA_DIR: 'directory holding all state; created if missing',
  ADMIN_KEY: 'operator master key (16+ characters); unset on first start: one is generated and printed once',
  COMMIT_INTERVAL_MS: 'how often the search engine commits; pushed documents become searchable then',
  MERGE_IDLE_MS:
    'quiet time (no document pushed or deleted) after which the search index is compacted towards one segment; 0 = never',
  SEARCH_THREADS:
    'worker threads running searches (default: one per core up to 4, none on one core); 0 = on the main thread',
  SEARCH_ACCOUNT_CONCURRENCY:
    'searches of one account running at once on the search threads (default: the threads but one, at least 1); the rest wait',
  SEARCH_CHEAP_WORDS: 'queries of more words than this run in the expensive search lane',
  SEARCH_MAX_CLAUSES: 'words and phrases a query may have after analysis; more is refused (422)',
  SEARCH_MAX_TERMS: 'index terms a query may expand into (alternatives, compound parts); more is refused (422)',
  SEARCH_MAX_PLANNED_WORK:
    'work units of a query if nothing were pruned (postings blocks of its terms, weighted by its clauses); more is refused (422)',
  SEARCH_MAX_WORK:
    'work units a search may spend (postings blocks decoded, weighted by its clauses); then it answers with the best hits found so far',
  SEARCH_TIME_BUDGET_MS: "time a search's query may run; then it answers with the best hits found so far",
  INDEXING_API_MAX_BINARY_BYTES: 'largest decoded binary_base64 of a pushed document',
  MAX_REQUEST_BYTES: 'largest request body (default: one maximal Base64 binary + 16 MiB)',
  REQUEST_BODY_BUDGET_BYTES: 'request body bytes held in memory across all requests at once; past it requests wait',
  REQUEST_BODY_WAIT_MS: 'how long a request waits for room in that budget before a 503 with Retry-After',
  HTTP_MAX_HEADER_BYTES: 'largest request line plus header fields; beyond it 431',
  EXTRACT_WORKER_HEAP_MB: 'V8 heap cap of each extraction worker; a document needing more fails alone',
  EXTRACT_INFLATE_BUDGET_BYTES: 'bytes all extraction workers together may decompress, split evenly between them',
  LOG_LEVEL: 'debug, info, warn, error or silent',
  STATE_COMPACT_BYTES: 'control-plane log size that triggers compaction into a snapshot',
  WEB_SEARCH_DEFAULT_MODE: 'web search mode when a request names none: search, context or engine2',
  BRAVE_API_KEY: 'Brave Search API key (modes search and context)',
  BRAVE_BASE_URL: 'Brave Search API base URL',
  SEARXNG_BASE_URL: 'base URL of a self-hosted SearXNG instance (mode engine2)',
  CRAWLER_ALLOW_PRIVATE: 'let the web-search crawler fetch private and loopback addresses',
  CRAWLER_USER_AGENT: 'User-Agent of the web-search crawler (default names the product)',
  CRAWLER_MAX_BYTES: 'largest page body the crawler reads, in bytes',
  CRAWLER_MAX_REDIRECTS: 'redirects followed per crawled page',
  CRAWLER_CONCURRENCY: 'pages fetched at the same time by one web-search request',
  CRAWLER_PAGE_TIMEOUT_MS: 'time limit of one page fetch',
  WEB_SEARCH_CONTENT_CHARS: 'characters of page content per web result',
  WEB_SEARCH_DEEP_CONTENT_CHARS: 'characters of page content per web result with deep_search',
  LLM_BASE_URL: 'OpenAI-compatible chat upstream, e.g. http://127.0.0.1:8000/v1 (unset: only the extractive model)',
  LLM_API_KEY: 'bearer key sent to the chat upstream',
  LLM_MODELS: 'comma-separated model ids the upstream serves; the first is the default (required with LLM_BASE_URL)',
  LLM_TIMEOUT_MS: 'time limit of one upstream chat call',
  CHAT_MAX_TOOL_ROUNDS: 'tool rounds per completion before the model must answer without tools',
  CHAT_SEARCH_RESULTS: 'search results one serviceSearch tool call gives the model',
  FILES_MAX_BYTES: 'largest file accepted by POST /api/beta/files/upload',
  FILES_CONTEXT_CHARS: 'characters of attached-file text given to the model per completion',
  SESSION_IDLE_MINUTES: 'a browser session unused this many minutes ends',
  SESSION_MAX_HOURS: 'a browser session ends this many hours after sign-in, whatever its use',
  TRUST_PROXY: 'trust X-Forwarded-For/-Proto/-Host from a reverse proxy (client address, https cookies, origin)',
  AUDIT_RETENTION_DAYS: 'days the audit log keeps its records; 0 keeps them forever',
  ANALYTICS: 'search analytics and answer feedback: off, on (with the account) or anonymous',
  ANALYTICS_RETENTION_DAYS: 'days search analytics are kept; 0 keeps them forever',
  PASSWORD_SIGNIN: 'let people sign in with local passwords (false: single sign-on only)',
  OIDC_ISSUER: 'OpenID Connect issuer URL for single sign-on (discovery at /.well-known/openid-configuration)',
  OIDC_CLIENT_ID: 'client id registered with the OpenID provider',
  OIDC_CLIENT_SECRET: 'client secret registered with the OpenID provider (never logged)',
  OIDC_SCOPES: 'scopes asked for at sign-in; must include openid',
  OIDC_ALLOWED_DOMAINS: 'comma-separated email domains allowed to sign in (default: any verified email)',
  OIDC_GROUPS_CLAIM: 'ID-token claim holding the groups mapped to roles',
  OIDC_ADMIN_GROUPS: 'comma-separated groups that give the administrator role',
  OIDC_DEVELOPER_GROUPS: 'comma-separated groups that give the developer role',
  OIDC_LABEL: 'label of the single sign-on button',
  PUBLIC_URL: 'origin used in sign-in links, e.g. https://search.example.com (default: the origin the request came to)',
  CORS_ORIGINS:
    'comma-separated origins allowed to call /api/* from a browser, e.g. https://app.example.com (default: CORS off)',
  CONNECTOR_SECRET:
    'operator secret (16+ characters) that connector credentials are encrypted with; unset: none stored',
  METRICS_TOKEN: 'bearer token (16+ characters) a Prometheus scraper presents at /metrics; unset: /metrics is off',
  BACKUP_DIR:
    'directory (outside DATA_DIR) under which POST /api/admin/backups writes backups; unset: that endpoint is refused',
};

/** The usage text printed by `--help`. */
export function usage(): string {
  const lines = [
    `${NAME} ${VERSION}: ${pkg.description}`,
    '',
    `Usage: ${NAME} [--help | --version | connector run <id> | <command>]`,
    '',
    'Without arguments, starts the HTTP server. `connector run <id>` runs one connector on the',
    'data directory and exits (refused while a server holds it: use the admin API then).',
    'Commands (run on the data directory with no server on it; each refuses clearly while a',
    'server holds it and names the admin API to use instead; results are JSON on stdout):',
    '',
    ...COMMAND_USAGE.map((line) => `  ${line}`),
    '',
    'All are configured only through environment variables (empty values count as unset):',
    '',
  ];
  for (const [name, schema] of Object.entries(EnvSchema.entries) as [Variable, { default?: unknown }][]) {
    const fallback = schema.default === undefined ? 'unset' : `default ${String(schema.default)}`;
    lines.push(`  ${name} (${fallback})`, `      ${VARIABLE_HELP[name]}`);
  }
  lines.push('', 'Stop with SIGINT or SIGTERM: in-flight requests finish, then the state is closed.', '');
  return lines.join('\n');
}

export type CommandLine =
  | { action: 'serve' }
  | { action: 'connector-run'; id: string }
  | { action: 'command'; command: AdminCommand }
  | { action: 'print'; stream: 'stdout' | 'stderr'; text: string; exitCode: number };

/** Decides what the process does for the given arguments (process.argv.slice(2)). */
export function parseCommandLine(args: readonly string[]): CommandLine {
  if (args.length === 0) return { action: 'serve' };
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    return { action: 'print', stream: 'stdout', text: `${VERSION}\n`, exitCode: 0 };
  }
  if (args.length === 3 && args[0] === 'connector' && args[1] === 'run')
    return { action: 'connector-run', id: args[2] };
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    return { action: 'print', stream: 'stdout', text: usage(), exitCode: 0 };
  }
  try {
    const command = parseAdminCommand(args);
    if (command) return { action: 'command', command };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return { action: 'print', stream: 'stderr', text: `${NAME}: ${err.message}; try --help\n`, exitCode: 2 };
  }
  return {
    action: 'print',
    stream: 'stderr',
    text: `${NAME}: unknown argument ${JSON.stringify(args.join(' '))}; try --help\n`,
    exitCode: 2,
  };
}
