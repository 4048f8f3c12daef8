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
}
