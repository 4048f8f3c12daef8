/**
 * The strict JSON body of POST /api/beta/web_search (spec: Web search endpoint),
 * validated with valibot and reported in the Pydantic envelope (422). `null`
 * counts as omitted for optional fields. Limits are those of types.ts.
 */
import * as v from 'valibot';
import { pyIssue } from '../validation/pydantic.ts';
import { MAX_QUERIES, MAX_QUERY_CHARS, MAX_SITES, WEB_SEARCH_MODES } from './types.ts';
import { siteHost } from './urls.ts';

const int = (min: number) =>
  v.pipe(
    v.number(pyIssue('int_type', 'Input should be a valid integer')),
    v.integer(pyIssue('int_from_float', 'Input should be a valid integer, got a number with a fractional part')),
    v.minValue(min),
  );

export const WebSearchBody = v.strictObject({
  queries: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(MAX_QUERY_CHARS))),
    v.minLength(1),
    v.maxLength(MAX_QUERIES),
    v.check(
      (qs) => qs.some((q) => q.trim() !== ''),
      pyIssue('value_error', 'Value error, at least one query must be non-empty', { error: {} }),
    ),
  ),
  sites: v.nullish(
    v.pipe(
      v.array(
        v.pipe(
          v.string(),
          v.check((s) => siteHost(s) !== null, pyIssue('value_error', 'Value error, not a host name', { error: {} })),
        ),
      ),
      v.maxLength(MAX_SITES),
    ),
  ),
  count: v.nullish(int(1)),
  timeout: v.nullish(int(1)),
  deep_search: v.nullish(v.boolean()),
  mode: v.nullish(v.picklist(WEB_SEARCH_MODES)),
});

export type WebSearchBodyInput = v.InferOutput<typeof WebSearchBody>;
