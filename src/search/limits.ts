/**
 * The budgets of one search (README, Search budgets): what a query may expand
 * into and cost before it is refused with a 422, and the work and time it may
 * spend before it stops and answers with the best hits found so far. Every
 * caller of the search domain (the search route, the chat's serviceSearch tool)
 * runs under the same limits: they travel in the SearchPlan (service.ts).
 * The limits and their defaults are the configuration's (config.ts, SEARCH_*).
 * Here: the 422s of rejected queries (`queryRejection`) and the log lines of
 * refusals and cuts on the caller's request logger (`logBudget`).
 */
import type { BudgetCut, QueryError } from '../../engine/index.ts';
import type { ValidationItem } from '../errors.ts';
import { RequestValidationError } from '../errors.ts';
import type { Logger } from '../log.ts';

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

/** The limit a QueryError of the engine names when it refuses a query over a limit of its planned cost. */
const REFUSALS: Partial<Record<QueryError['code'], RefusalLimit>> = {
  too_many_clauses: 'maxClauses',
  too_many_terms: 'maxTerms',
  over_budget: 'maxPlannedWork',
};

/**
 * The 422 of a query the engine rejected, at ['query', 'query']: a SearchRefusedError naming the
 * variable for a query over a limit of its planned cost, a RequestValidationError for a query too
 * long or invalid; null for other errors (not the client's).
 */
export function queryRejection(err: QueryError, query: string): RequestValidationError | null {
  const refused = REFUSALS[err.code];
  if (refused === undefined && err.code !== 'query_too_long' && err.code !== 'invalid_query') return null;
  const item: ValidationItem = {
    type: 'value_error',
    loc: ['query', 'query'],
    msg: `Value error, ${err.message}${refused ? ` (${LIMIT_VARIABLES[refused]})` : ''}`,
    input: query,
    ctx: { error: {} },
  };
  return refused ? new SearchRefusedError(refused, [item]) : new RequestValidationError([item]);
}

/** Logs a search stopped by its budget, or refused over a limit, on the caller's (request) logger. */
export function logBudget(log: Logger | undefined, outcome: { cut?: BudgetCut } | SearchRefusedError): void {
  if (log === undefined) return;
  if (outcome instanceof SearchRefusedError)
    log.info('search refused: over a limit of its planned cost', { limit: LIMIT_VARIABLES[outcome.limit] });
  else if (outcome.cut)
    log.warn('search stopped by its budget; answered with the best hits found so far', { ...outcome.cut });
}

/** Runs `search`, logging a refusal over a limit (then thrown on). */
export async function refusalsLogged<T>(log: Logger | undefined, search: () => T | Promise<T>): Promise<T> {
  try {
    return await search();
  } catch (err) {
    if (err instanceof SearchRefusedError) logBudget(log, err);
    throw err;
  }
}
