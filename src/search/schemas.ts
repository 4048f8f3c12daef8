/**
 * The search request: the valibot schema that validates GET /api/beta/search
 * query parameters (the same objects generate the OpenAPI description, see
 * openapi.ts), and `toSearchParams` turning a validated query into the typed
 * parameters of `searchDocuments` (service.ts).
 *
 * Rules (spec, Search endpoint): `query` required, 1..8192 characters (the
 * upper bound is the engine's query limit); `count` integer 1..100, default 50;
 * `start_page` integer >= 0, default 0; `data_source` and `file_type`
 * comma-separated lists; `last_modified_date` a preset or `<start>_<end>`
 * with `YYYY-MM-DDThh:mm:ss.sssZ` timestamps; `language` (extension) `de`
 * (default) or `en`. Unknown parameters are ignored, as FastAPI does.
 */
import * as v from 'valibot';
import { parseInstant } from '../validation/iso-date.ts';
import { RequestValidationError } from '../errors.ts';
import { pyIssue, toValidationItems } from '../validation/pydantic.ts';
import { SEARCH_FILE_TYPES, type SearchFileType } from '../documents/file-types.ts';

/** The spec's source categories; pushed datasources belong to `other`. */
export const DATA_SOURCE_CATEGORIES = [
  'wikitool',
  'issuetool',
  'codehost',
  'intranet_online',
  'mailsuite',
  'fileshares',
  'other',
] as const;
export const ALL_DATA_SOURCES = 'allDataSources';
export const ALL_FILE_TYPES = 'allFileTypes';
export const ALL_TIMES = 'allTimes';
export const DATE_PRESETS = ['threeday', 'week', 'month', 'threemonth', 'year', 'fiveyear'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const MAX_QUERY_CHARS = 8192;
export const MAX_COUNT = 100;
export const DEFAULT_COUNT = 50;

const SLUG_WORD = '[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*';
const list = (item: string) => new RegExp(`^(?:${item})(?:,(?:${item}))*$`);

/** Comma-separated categories, pushed datasource names (slugs; existence is checked by the service) or `allDataSources`. */
export const DATA_SOURCE_LIST = list(`${ALL_DATA_SOURCES}|${SLUG_WORD}`);
/** Comma-separated search file types or `allFileTypes`. */
export const FILE_TYPE_LIST = list([ALL_FILE_TYPES, ...SEARCH_FILE_TYPES].join('|'));
/** Custom date range: two UTC timestamps with milliseconds joined by `_`. */
const TS = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
export const DATE_RANGE = new RegExp(`^${TS}_${TS}$`);

const INT_STRING = /^\s*[+-]?\d+(?:\.0*)?\s*$/;
/** Marker check recognised by the JSON Schema converter: the string parameter is an integer. */
export const isIntegerString = (s: string): boolean => INT_STRING.test(s);

/** A query-string integer as Pydantic parses it (int_parsing, then the bounds). */
function integerParam(min: number, max?: number) {
  const parse = v.pipe(
    v.string(),
    v.check(
      isIntegerString,
      pyIssue('int_parsing', 'Input should be a valid integer, unable to parse string as an integer'),
    ),
    v.transform((s: string) => Math.trunc(Number(s.trim()))),
    v.minValue(min),
  );
  return max === undefined ? parse : v.pipe(parse, v.maxValue(max));
}

/** Both timestamps (the spec's strict DATE_RANGE form) are real instants (validation/iso-date.ts) and start <= end. */
export function parseDateRange(s: string): { start: number; end: number } | null {
  if (!DATE_RANGE.test(s)) return null;
  const [a, b] = s.split('_');
  const start = parseInstant(a);
  const end = parseInstant(b);
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  return start <= end ? { start, end } : null;
}

const listMessage = (what: string, allowed: readonly string[]) =>
  pyIssue(
    'value_error',
    `Value error, ${what} must be a comma-separated list of ${allowed.map((a) => `'${a}'`).join(', ')}`,
    { error: {} },
  );

const RANGE_MESSAGE =
  "Value error, last_modified_date must be 'allTimes', one of 'threeday', 'week', 'month', 'threemonth', 'year', 'fiveyear', or '<start>_<end>' with UTC timestamps YYYY-MM-DDThh:mm:ss.sssZ and start <= end";

export const SearchQuerySchema = v.object({
  query: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(MAX_QUERY_CHARS),
    v.description('Free-text query: words (OR, ranked by BM25), "quoted phrases", +required and -excluded words.'),
  ),
  count: v.pipe(
    v.optional(integerParam(1, MAX_COUNT), String(DEFAULT_COUNT)),
    v.description('Number of results per page.'),
  ),
  data_source: v.pipe(
    v.optional(
      v.pipe(
        v.string(),
        v.regex(
          DATA_SOURCE_LIST,
          listMessage('data_source', [ALL_DATA_SOURCES, ...DATA_SOURCE_CATEGORIES, '<pushed datasource name>']),
        ),
      ),
      ALL_DATA_SOURCES,
    ),
    v.description(
      `Comma-separated source categories (${DATA_SOURCE_CATEGORIES.join(', ')}; pushed datasources are 'other') or names of pushed datasources (unknown names are rejected with 422).`,
    ),
  ),
  file_type: v.pipe(
    v.optional(
      v.pipe(v.string(), v.regex(FILE_TYPE_LIST, listMessage('file_type', [ALL_FILE_TYPES, ...SEARCH_FILE_TYPES]))),
      ALL_FILE_TYPES,
    ),
    v.description('Comma-separated search file types.'),
  ),
  last_modified_date: v.pipe(
    v.optional(
      v.union(
        [
          v.picklist([ALL_TIMES, ...DATE_PRESETS]),
          v.pipe(
            v.string(),
            v.regex(DATE_RANGE, pyIssue('value_error', RANGE_MESSAGE, { error: {} })),
            v.check((s: string) => parseDateRange(s) !== null, pyIssue('value_error', RANGE_MESSAGE, { error: {} })),
          ),
        ],
        pyIssue('value_error', RANGE_MESSAGE, { error: {} }),
      ),
      ALL_TIMES,
    ),
    v.description(
      'A preset relative to now (threeday = 3 days, week = 7 days, month/threemonth/year/fiveyear = calendar months/years back) or an inclusive custom range <start>_<end>.',
    ),
  ),
  start_page: v.pipe(
    v.optional(integerParam(0), '0'),
    v.description('Zero-based page: results are skipped by start_page * count.'),
  ),
  language: v.pipe(
    v.optional(v.picklist(['de', 'en']), 'de'),
    v.description('Extension: query analysis hint (default de); queries find documents in either language.'),
  ),
});

export type SearchQuery = v.InferOutput<typeof SearchQuerySchema>;

/**
 * Validate raw query values (last value per name) as FastAPI does for query
 * parameters: `input` is the raw string (null when missing).
 */
export function validateSearchQuery(raw: Record<string, string>): SearchQuery {
  const result = v.safeParse(SearchQuerySchema, raw, { abortEarly: false });
  if (result.success) return result.output;
  const items = toValidationItems(result.issues, 'query').map((item) => {
    const name = item.loc[1];
    return { ...item, input: typeof name === 'string' && Object.hasOwn(raw, name) ? raw[name] : null };
  });
  throw new RequestValidationError(items);
}

export type DateFilter =
  { kind: 'all' } | { kind: 'preset'; preset: DatePreset } | { kind: 'range'; start: number; end: number };

/** Typed parameters of `searchDocuments` (the route and the chat's search tool build these). */
export interface SearchParams {
  query: string;
  /** 1..100 (default 50). */
  count?: number;
  /** >= 0 (default 0). */
  startPage?: number;
  /** Categories and/or pushed datasource names; absent or empty = all. */
  dataSources?: readonly string[];
  /** Search file types; absent or empty = all. */
  fileTypes?: readonly SearchFileType[];
  lastModified?: DateFilter;
  /** Query analysis hint, default 'de'. */
  language?: 'de' | 'en';
}

const splitList = (s: string, all: string): string[] => {
  const items = s.split(',');
  return items.includes(all) ? [] : [...new Set(items)];
};

export function toSearchParams(q: SearchQuery): SearchParams {
  const lm = q.last_modified_date;
  const range = lm === ALL_TIMES || (DATE_PRESETS as readonly string[]).includes(lm) ? null : parseDateRange(lm);
  return {
    query: q.query,
    count: q.count,
    startPage: q.start_page,
    dataSources: splitList(q.data_source, ALL_DATA_SOURCES),
    fileTypes: splitList(q.file_type, ALL_FILE_TYPES) as SearchFileType[],
    lastModified:
      lm === ALL_TIMES
        ? { kind: 'all' }
        : range
          ? { kind: 'range', ...range }
          : { kind: 'preset', preset: lm as DatePreset },
    language: q.language,
  };
}

/**
 * `now` moved back `months` calendar months (UTC), the day of the month clamped to the length of
 * the month reached (May 31 -> April 30, February 29 -> February 28 a year back), time of day kept.
 */
function monthsBack(now: number, months: number): number {
  const d = new Date(now);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() - months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  d.setUTCFullYear(year, month, Math.min(d.getUTCDate(), lastDay));
  return d.getTime();
}

/** Lower bound (epoch ms) of a preset relative to `now`: days for threeday/week, calendar months/years otherwise. */
export function presetStart(preset: DatePreset, now: number): number {
  switch (preset) {
    case 'threeday':
      return now - 3 * 86_400_000;
    case 'week':
      return now - 7 * 86_400_000;
    case 'month':
      return monthsBack(now, 1);
    case 'threemonth':
      return monthsBack(now, 3);
    case 'year':
      return monthsBack(now, 12);
    case 'fiveyear':
      return monthsBack(now, 60);
  }
}
