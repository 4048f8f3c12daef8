/**
 * The dependencies the HTTP layer is built from, wired by hand in main.ts
 * (tests build their own, with fakes for external services).
 */
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { StateStore } from './state/store.ts';
import type { WebSearchService } from './websearch/types.ts';
import type { DocumentService } from './documents/service.ts';
import type { ChatSearchFn } from './chat/tools.ts';
import type { PlanRunner } from './search/service.ts';
import type { BodyBudget } from './http/admission.ts';
import type { AuditLog } from './audit/audit.ts';
import type { OidcSignIn } from './sessions/oidc.ts';
import type { SignInThrottle } from './sessions/throttle.ts';
import type { WebAssets } from './build/web-assets.ts';
import type { ConversationStore } from './conversations/store.ts';
import type { SearchAnalytics } from './analytics/analytics.ts';
import type { ConnectorScheduler } from './connectors/scheduler.ts';
import type { UploadSessions } from './uploads/sessions.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Readiness } from './readiness.ts';

export interface Services {
  config: Config;
  log: Logger;
  state: StateStore;
  /** Wall clock in epoch milliseconds (injectable for expiry tests). */
  now: () => number;
  /** Web search (route and chat tool); when absent the route builds one from `config.webSearch`. */
  webSearch?: WebSearchService;
  /** The documents pipeline over the search engine (Indexing API documents, search). */
  documents?: DocumentService;
  /** Runs searches on worker threads (src/search/pool.ts); absent: searches run on the main thread. */
  searchRunner?: PlanRunner;
  /** Search of the chat's serviceSearch tool; default: searchDocuments over `documents` (src/chat/search-source.ts). */
  chatSearch?: ChatSearchFn;
  /** Fetch used for the chat's language-model upstream (default the global fetch). */
  chatFetch?: typeof fetch;
  /** Memory admission of request bodies; default one built from `config` (REQUEST_BODY_BUDGET_BYTES). */
  bodyBudget?: BodyBudget;
  /** Failed sign-in counts (one per process); createApp makes one when absent. */
  signInThrottle?: SignInThrottle;
  /** The audit log of administrative changes and sign-ins (main.ts opens it under DATA_DIR/audit). */
  audit?: AuditLog;
  /** Single sign-on (createApp makes one from `config.web.oidc` when absent). */
  oidc?: OidcSignIn;
  /** Saved chat conversations per account; createApp makes one under DATA_DIR when absent. */
  conversations?: ConversationStore;
  /** Search analytics and answer feedback; createApp makes one under DATA_DIR/analytics when absent. */
  analytics?: SearchAnalytics;
  /** The browser assets (src/web/assets/store.ts loadWebAssets); the pages are served only when present. */
  webAssets?: WebAssets;
  /** Runs the connectors (src/connectors/); absent: no connectors API. */
  connectors?: ConnectorScheduler;
  /** Upload sessions of the Indexing API (src/uploads/); absent: no upload-session routes. */
  uploads?: UploadSessions;
  /** The Prometheus metrics (src/metrics/); when absent createApp makes one if METRICS_TOKEN is set. */
  metrics?: Metrics;
  /** Start-up progress for GET /readyz; absent: the services given are open (ready). */
  readiness?: Readiness;
}
