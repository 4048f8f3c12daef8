/**
 * The budgets of one search (README, Search budgets): what a query may expand
 * into and cost before it is refused with a 422, and the work and time it may
 * spend before it stops and answers with the best hits found so far. Every
 * caller of the search domain (the search route, the chat's serviceSearch tool)
 * runs under the same limits: they travel in the SearchPlan (service.ts).
 * The limits and their defaults are the configuration's (config.ts, SEARCH_*).
 */
import type { ValidationItem } from '../errors.ts';
import { RequestValidationError } from '../errors.ts';

export { DEFAULT_SEARCH_LIMITS, type SearchLimits } from '../config.ts';

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
