/**
 * The budgets of one search (README, Search budgets): what a query may expand
 * into and cost before it is refused with a 422, and the work and time it may
 * spend before it stops and answers with the best hits found so far. Every
 * caller of the search domain (the search route, the chat's serviceSearch tool)
 * runs under the same limits: they travel in the SearchPlan (service.ts).
 * The defaults are those of the environment variables (config.ts).
 */
import type { ValidationItem } from '../errors.ts';
import { RequestValidationError } from '../errors.ts';

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

export const DEFAULT_SEARCH_LIMITS: Readonly<SearchLimits> = Object.freeze({
  maxClauses: 1024,
  maxTerms: 2048,
  maxPlannedWork: 400_000,
  maxWork: 100_000,
  timeBudgetMs: 1000,
});

/** The environment variable of each limit a query can be refused for (named in the 422). */
export const LIMIT_VARIABLES = {
  maxClauses: 'SEARCH_MAX_CLAUSES',
  maxTerms: 'SEARCH_MAX_TERMS',
  maxPlannedWork: 'SEARCH_MAX_PLANNED_WORK',
} as const;

export type RefusalLimit = keyof typeof LIMIT_VARIABLES;

/**
 * A search refused before it ran: its planned cost is over `limit`. A 422 in the spec's validation
 * envelope at ['query', 'query'] whose message names the limit and its variable.
 */
export class SearchRefusedError extends RequestValidationError {
  constructor(
    readonly limit: RefusalLimit,
    items: ValidationItem[],
  ) {
    super(items);
  }
}
