/**
 * The search domain function behind GET /api/beta/search and the chat's
 * serviceSearch tool (independent of HTTP): `searchDocuments(deps, email, params)`.
 *
 * 1. Visibility: the union of the user's access tokens over all datasources
 *    (visibility.ts); none -> no results without touching the engine.
 * 2. Filters: `dataSources` (categories -> `category` column, pushed names ->
 *    `datasource` column; unknown names -> 422 on `data_source`), `fileTypes`
 *    (`file_type` column), `lastModified` (numeric `last_modified`; documents
 *    without a date never match a date filter).
 * The validation and visibility part (`planSearch`) needs the control-plane state and runs
 * where the request arrives; the engine part (`runPlan`) runs on this thread
 * (`searchDocuments`) or on a search worker (`searchWith` with pool.ts).
 *
 * 3. One engine search with near-duplicates collapsed, offset = startPage * count;
 *    hits beyond the first MAX_RESULT_WINDOW are not returned (a page straddling
 *    that end is cut there, a page after it is empty). A blank query
 *    (whitespace only) lists the visible documents within the filters; a query
 *    of stopwords of both languages finds nothing.
 * 4. The full record per returned hit (result.ts), every related list under
 *    the same visibility filter; related lists are cached per (snapshot,
 *    token set, document) in related-cache.ts, similar lists also across
 *    snapshots while every listed document is still live (related-cache.ts).
 *
 * Budgets (limits.ts) travel in the plan, so every caller searches under the same
 * ones: a query over a limit of its planned cost is refused (SearchRefusedError,
 * a 422), and a query that spends its work or time budget answers with the best
 * hits found so far (`cut`, logged with the caller's request logger).
 */
import type { BudgetCut, Filter, Index, Language, Searcher } from '../../engine/index.ts';
import { QueryError } from '../../engine/index.ts';
import { RequestValidationError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { indexingState } from '../controlplane/datasources.ts';
import type { SubRecord } from '../controlplane/state.ts';
import type { StateStore } from '../state/store.ts';
import {
  DATA_SOURCE_CATEGORIES,
  DEFAULT_COUNT,
  MAX_COUNT,
  presetStart,
  type DateFilter,
  type SearchParams,
} from './schemas.ts';
import { RelatedCache, type StableReuse } from './related-cache.ts';
import { buildResult, type SearchResult } from './result.ts';
import { visibilityFilter, visibleTokens, type HiddenDatasource } from './visibility.ts';
import type { SelectPassagesFn } from '../passages/select.ts';
import { DEFAULT_SEARCH_LIMITS, logBudget, queryRejection, refusalsLogged, type SearchLimits } from './limits.ts';

export interface SearchDeps {
  state: StateStore;
  index: Index;
  /** Wall clock in epoch ms (date presets). */
  now: () => number;
  /**
   * Datasource names whose committed documents are hidden for now (visibility.ts): those of a deleted
   * datasource still in the index under the name of one created again (DocumentService.dropPending).
   */
  hidden?: HiddenDatasource;
  /** The budgets of every search (default: DEFAULT_SEARCH_LIMITS, the configuration's defaults). */
  limits?: SearchLimits;
}

export interface SearchResponseBody {
  results: SearchResult[];
}

/** Hits reachable through pagination (offset + count). */
export const MAX_RESULT_WINDOW = 10_000;

interface PerIndex {
  related: RelatedCache;
  searcher: Searcher | null;
}
const perIndex = new WeakMap<Index, PerIndex>();

/**
 * One searcher per index snapshot, shared by all searches (its term statistics stay warm);
 * replaced on the first search after a commit. searchDocuments never yields, so no search
 * is running on the old searcher when it is released.
 */
function shared(index: Index): { related: RelatedCache; searcher: Searcher } {
  let p = perIndex.get(index);
  if (!p) perIndex.set(index, (p = { related: new RelatedCache(), searcher: null }));
  if (!p.searcher || p.searcher.generation !== index.reader.generation) {
    if (p.searcher) index.reader.release(p.searcher);
    p.searcher = index.reader.searcher();
  }
  return { related: p.related, searcher: p.searcher };
}

/**
 * Replaces the related-lists cache of `index` with one reusing similar lists across snapshots
 * under `reuse` (related-cache.ts StableReuse; the defaults reuse them only at scale).
 */
export function configureRelatedCache(index: Index, reuse: Partial<StableReuse>): void {
  const p = perIndex.get(index);
  const related = new RelatedCache(undefined, undefined, reuse);
  if (p) p.related = related;
  else perIndex.set(index, { related, searcher: null });
}

const CATEGORIES: ReadonlySet<string> = new Set(DATA_SOURCE_CATEGORIES);

function dataSourceFilter(values: readonly string[], known: ReadonlySet<string>): Filter | null {
  if (values.length === 0) return null;
  const unknown = values.filter((v) => !CATEGORIES.has(v) && !known.has(v));
  if (unknown.length > 0) {
    throw new RequestValidationError([
      {
        type: 'value_error',
        loc: ['query', 'data_source'],
        msg: `Value error, unknown data source ${unknown.map((u) => `'${u}'`).join(', ')}: use one of ${DATA_SOURCE_CATEGORIES.map((c) => `'${c}'`).join(', ')} or the name of a pushed datasource`,
        input: values.join(','),
        ctx: { error: {} },
      },
    ]);
  }
  const categories = values.filter((v) => CATEGORIES.has(v));
  const names = values.filter((v) => !CATEGORIES.has(v));
  const parts: Filter[] = [];
  if (categories.length > 0) parts.push({ keyword: 'category', anyOf: categories });
  if (names.length > 0) parts.push({ keyword: 'datasource', anyOf: names });
  return parts.length === 1 ? parts[0] : { or: parts };
}

function dateFilter(f: DateFilter | undefined, now: number): Filter | null {
  if (!f || f.kind === 'all') return null;
  if (f.kind === 'range') return { numeric: 'last_modified', gte: f.start, lte: f.end };
  return { numeric: 'last_modified', gte: presetStart(f.preset, now) };
}

/**
 * A search after validation and visibility: everything the engine part needs, and nothing of
 * the control-plane state, so that it can run on a search worker (pool.ts). Structured-cloneable.
 */
export interface SearchPlan {
  query: string;
  language: Language;
  /** The viewer's access tokens over all datasources (sorted, never empty). */
  tokens: readonly string[];
  /** Filters besides visibility (datasources, file types, dates). */
  filters: Filter[];
  count: number;
  offset: number;
  /** Wall clock in epoch ms. */
  now: number;
  /** Subs of the datasources that declare any (compound sub values of the records). */
  subs: Record<string, SubRecord[]>;
  /** The search's budgets. */
  limits: SearchLimits;
}

/** Validates `params` for `email` (422 on an unknown data source); null when nothing can be found. */
export function planSearch(deps: SearchDeps, email: string, params: SearchParams): SearchPlan | null {
  const state = indexingState(deps);
  const pageSize = Math.min(MAX_COUNT, Math.max(1, Math.floor(params.count ?? DEFAULT_COUNT)));
  const offset = Math.max(0, Math.floor(params.startPage ?? 0)) * pageSize;
  const sourceFilter = dataSourceFilter(params.dataSources ?? [], new Set(state.datasources.keys()));
  const tokens = visibleTokens(state, email, deps.hidden);
  if (tokens.length === 0 || offset >= MAX_RESULT_WINDOW) return null;
  // A page straddling the end of the window gets the hits still inside it.
  const count = Math.min(pageSize, MAX_RESULT_WINDOW - offset);

  const filters: Filter[] = [];
  if (sourceFilter) filters.push(sourceFilter);
  if (params.fileTypes && params.fileTypes.length > 0)
    filters.push({ keyword: 'file_type', anyOf: [...params.fileTypes] });
  const now = deps.now();
  const dates = dateFilter(params.lastModified, now);
  if (dates) filters.push(dates);
  const subs: Record<string, SubRecord[]> = {};
  for (const [name, ds] of state.datasources) if (ds.record.subs.length > 0) subs[name] = ds.record.subs;
  const limits = deps.limits ?? DEFAULT_SEARCH_LIMITS;
  return { query: params.query, language: params.language ?? 'de', tokens, filters, count, offset, now, subs, limits };
}

/**
 * One filter object per token-set array (visibleTokens and the search workers keep those arrays
 * while they are valid): the engine validates and keys a filter once per object.
 */
const visibilityFilters = new WeakMap<readonly string[], Filter>();
function visibilityOf(tokens: readonly string[]): Filter {
  let f = visibilityFilters.get(tokens);
  if (!f) visibilityFilters.set(tokens, (f = visibilityFilter(tokens)!));
  return f;
}

/** A search's answer and, when a budget stopped its query early, where and why (the body holds the hits found so far). */
export interface PlanOutcome {
  body: SearchResponseBody;
  cut?: BudgetCut;
}

/** The engine part of a search: one query with near-duplicates collapsed, then the full record per hit. */
export function runPlan(searcher: Searcher, related: RelatedCache, plan: SearchPlan): PlanOutcome {
  const visibility = visibilityOf(plan.tokens);
  const filter = plan.filters.length === 0 ? visibility : { and: [visibility, ...plan.filters] };
  const { limits } = plan;
  try {
    const query = searcher.parse(plan.query, plan.language, {
      maxClauses: limits.maxClauses,
      maxTerms: limits.maxTerms,
    });
    const budget = {
      maxWork: limits.maxWork,
      maxMs: limits.timeBudgetMs,
      maxPlannedWork: limits.maxPlannedWork,
    };
    const found = searcher.search({
      query,
      filter,
      limit: plan.count,
      offset: plan.offset,
      collapseDuplicates: true,
      budget,
    });
    const viewer = related.viewer(plan.tokens);
    const scope = related.viewerScope(searcher.generation, viewer, () => searcher.liveSegmentIds());
    const cache = { store: related, scope, viewer, now: plan.now };
    const subsOf = (datasource: string) => (Object.hasOwn(plan.subs, datasource) ? plan.subs[datasource] : []);
    const body = { results: found.hits.map((hit) => buildResult({ searcher, query, visibility, subsOf, cache }, hit)) };
    return found.cut ? { body, cut: found.cut } : { body };
  } catch (err) {
    throw (err instanceof QueryError && queryRejection(err, plan.query)) || err;
  }
}

/** A search on this thread (tests, tools; the server goes through `searchWith`). */
export function searchDocuments(deps: SearchDeps, email: string, params: SearchParams): SearchResponseBody {
  return searchHere(deps, email, params).body;
}

function searchHere(deps: SearchDeps, email: string, params: SearchParams): PlanOutcome {
  const plan = planSearch(deps, email, params);
  if (!plan) return { body: { results: [] } };
  const { related, searcher } = shared(deps.index);
  return runPlan(searcher, related, plan);
}

/** Who a search is run for: the pool's per-account limit counts searches by `account`. */
export interface RunFor {
  account: string;
}

/** Runs plans elsewhere (the search worker pool, pool.ts). */
export interface PlanRunner {
  /**
   * The response body of `plan` as JSON text (serialised where it was made: no object crosses
   * threads), with the budget cut when there was one.
   */
  runJson(plan: SearchPlan, runFor: RunFor): Promise<{ json: string; cut?: BudgetCut }>;
  /** Optional: the chat's attached-file passages off the serving thread (passages/select.ts). */
  selectPassages?: SelectPassagesFn;
}

/** Told how long each search took (ms), refused or not (metrics). */
export type SearchObserver = (ms: number) => void;

/**
 * The response body as JSON text, from `runner` when given (worker threads), else made on this
 * thread. A budget cut or a refusal is logged on `log` (the request's logger).
 */
export async function searchJsonWith(
  deps: SearchDeps & { runner?: PlanRunner; onSearch?: SearchObserver },
  email: string,
  params: SearchParams,
  log?: Logger,
): Promise<string> {
  const started = performance.now();
  try {
    return await searchJson(deps, email, params, log);
  } finally {
    deps.onSearch?.(performance.now() - started);
  }
}

async function searchJson(
  deps: SearchDeps & { runner?: PlanRunner },
  email: string,
  params: SearchParams,
  log?: Logger,
): Promise<string> {
  const runner = deps.runner;
  const out = await refusalsLogged(log, () => {
    if (!runner) {
      const here = searchHere(deps, email, params);
      return { json: JSON.stringify(here.body), cut: here.cut };
    }
    const plan = planSearch(deps, email, params);
    return plan
      ? runner.runJson(plan, { account: email })
      : { json: JSON.stringify({ results: [] } satisfies SearchResponseBody) };
  });
  logBudget(log, out);
  return out.json;
}

/** The response body, from `runner` when given (worker threads), else made on this thread; logged as searchJsonWith. */
export async function searchWith(
  deps: SearchDeps & { runner?: PlanRunner; onSearch?: SearchObserver },
  email: string,
  params: SearchParams,
  log?: Logger,
): Promise<SearchResponseBody> {
  if (deps.runner) return JSON.parse(await searchJsonWith(deps, email, params, log)) as SearchResponseBody;
  const started = performance.now();
  try {
    const here = await refusalsLogged(log, () => searchHere(deps, email, params));
    logBudget(log, here);
    return here.body;
  } finally {
    deps.onSearch?.(performance.now() - started);
  }
}
