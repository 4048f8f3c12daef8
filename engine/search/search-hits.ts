/**
 * The search request of a Searcher: validate it, parse the query, run the top
 * k under the request's budget and cut the page at `offset`; with
 * `collapseDuplicates`, near-duplicate hits are grouped under their best one
 * (duplicate-hits.ts), fetching more hits until the page is full.
 *
 * Hits are ranked by BM25 (see similarity/bm25.ts, query/plan.ts) with ties
 * broken by segment order, then doc id. Top-k uses block-max MaxScore
 * (collector/top-k.ts) unless `pruning: false`, which scores every match (same
 * results, slower). Filters compile per segment to cached bitsets or per-doc
 * checks (query/filter.ts).
 */
import { QueryError } from '../query/parser.ts';
import { BudgetMeter } from '../query/budget.ts';
import type { SearchRequest, SearchResponse } from '../query/types.ts';
import type { DuplicateHits } from './duplicate-hits.ts';
import { MAX_LIMIT, MAX_OFFSET } from './searcher-core.ts';
import type { SearcherCore } from './searcher-core.ts';

/** `response` with the meter's cut when a budget stopped the search (no `cut` key otherwise). */
function withCut(response: SearchResponse, meter: BudgetMeter | null): SearchResponse {
  if (meter !== null && meter.cut !== null) response.cut = meter.cut;
  return response;
}

/** QueryError 'invalid_request' unless the request's shape, limit, offset and language are valid. */
function checkRequest(req: SearchRequest): void {
  if (req === null || typeof req !== 'object')
    throw new QueryError('invalid_request', 'search request must be an object');
  if (
    typeof req.query !== 'string' &&
    (req.query === null || typeof req.query !== 'object' || !Array.isArray(req.query.clauses))
  ) {
    throw new QueryError('invalid_request', 'query must be a string or a parsed query');
  }
  const limit = req.limit;
  const offset = req.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
    throw new QueryError('invalid_request', `limit must be an integer within 0..${MAX_LIMIT}`);
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
    throw new QueryError('invalid_request', `offset must be an integer within 0..${MAX_OFFSET}`);
  }
  const lang = req.language ?? 'de';
  if (lang !== 'de' && lang !== 'en') throw new QueryError('invalid_request', `unsupported language "${String(lang)}"`);
}

export function searchHits(core: SearcherCore, duplicates: DuplicateHits, req: SearchRequest): SearchResponse {
  checkRequest(req);
  const limit = req.limit;
  const offset = req.offset ?? 0;
  const lang = req.language ?? 'de';
  const parsed = typeof req.query === 'string' ? core.parse(req.query, lang) : req.query;
  if (req.filter !== undefined) core.validate(req.filter);
  const want = offset + limit;
  // One meter for every run of this search (the collapsed search may run again with a larger k).
  const budget = req.budget;
  const meter = budget && (budget.maxWork !== undefined || budget.maxMs !== undefined) ? new BudgetMeter(budget) : null;
  const maxPlannedWork = budget?.maxPlannedWork;
  if (!req.collapseDuplicates) {
    const { top, st } = core.topDocs(parsed, req.filter, want, -1, core.fields, 0, meter, maxPlannedWork);
    const hits = top
      .sorted()
      .slice(offset)
      .map((h) => core.hit(h.doc, h.score));
    return withCut({ total: st.count, totalIsExact: st.exact, hits }, meter);
  }
  let fetch = Math.min(MAX_LIMIT + MAX_OFFSET, want * 3 + 10);
  for (;;) {
    const { top, st } = core.topDocs(parsed, req.filter, fetch, -1, core.fields, 0, meter, maxPlannedWork);
    const groups = duplicates.collapse(top.sorted());
    if (
      groups.length >= want ||
      top.size < fetch ||
      fetch >= MAX_LIMIT + MAX_OFFSET ||
      (meter !== null && meter.cut !== null)
    ) {
      const hits = groups.slice(offset, want).map((g) => {
        const hit = core.hit(g.doc, g.score);
        if (g.duplicates) hit.duplicates = g.duplicates.map((d) => core.hit(d.doc, d.score));
        return hit;
      });
      return withCut({ total: st.count, totalIsExact: st.exact, hits }, meter);
    }
    fetch = Math.min(MAX_LIMIT + MAX_OFFSET, fetch * 4);
  }
}
