/**
 * The search page's state, all of it in the URL so that a link can be shared
 * and the back button restores a search. Short, readable names:
 *
 * | URL    | meaning                                   | API parameter        |
 * |--------|-------------------------------------------|----------------------|
 * | `q`    | the query as typed                        | `query`              |
 * | `ds`   | a source category or datasource name      | `data_source`        |
 * | `type` | a search file type                        | `file_type`          |
 * | `date` | a preset, or `custom` with `from`/`to`    | `last_modified_date` |
 * | `from`, `to` | days `YYYY-MM-DD` (UTC), inclusive  | `<start>_<end>`      |
 * | `page` | 1-based result page                       | `start_page` (0-based) |
 *
 * An empty value means "not set" (a form without scripts sends every field).
 * `apiQuery` only translates names and formats; the values are validated by
 * the API's own schema (search/params.ts) in the page handler.
 */

export const PAGE_SIZE = 10;
/** The earliest and latest days a half-open custom range stands for. */
const RANGE_START = '0000-01-01';
const RANGE_END = '9999-12-31';

export interface SearchState {
  q: string;
  ds: string;
  type: string;
  date: string;
  from: string;
  to: string;
  page: string;
}

const NAMES = ['q', 'ds', 'type', 'date', 'from', 'to', 'page'] as const;

/** The state of a page address; a repeated name counts with its last value, as in the API. */
export function readState(params: URLSearchParams): SearchState {
  const last = (name: string) => params.getAll(name).at(-1) ?? '';
  return {
    q: last('q'),
    ds: last('ds').trim(),
    type: last('type').trim(),
    date: last('date').trim(),
    from: last('from').trim(),
    to: last('to').trim(),
    page: last('page').trim(),
  };
}

/** Whether the custom range applies: `date=custom` with at least one end. */
export const hasRange = (s: SearchState): boolean => s.date === 'custom' && (s.from !== '' || s.to !== '');

/** Whether any filter is set (the zero-result state then offers a search without them). */
export const hasFilters = (s: SearchState): boolean =>
  s.ds !== '' || s.type !== '' || hasRange(s) || (s.date !== '' && s.date !== 'custom');

/** The 1-based page number, or undefined when the value is not a plain positive number. */
export function pageNumber(s: SearchState): number | undefined {
  if (s.page === '') return 1;
  if (!/^\d{1,9}$/.test(s.page)) return undefined;
  const n = Number(s.page);
  return n >= 1 ? n : undefined;
}

/**
 * The raw query values of GET /api/beta/search for this state (validated by the caller with the
 * API's schema). A page value that is not a positive whole number becomes a `start_page` the
 * schema rejects, so it is reported like every other bad value.
 */
export function apiQuery(s: SearchState, language: string): Record<string, string> {
  const raw: Record<string, string> = { query: s.q, count: String(PAGE_SIZE), language };
  if (s.ds !== '') raw.data_source = s.ds;
  if (s.type !== '') raw.file_type = s.type;
  if (hasRange(s)) {
    raw.last_modified_date = `${s.from || RANGE_START}T00:00:00.000Z_${s.to || RANGE_END}T23:59:59.999Z`;
  } else if (s.date !== '' && s.date !== 'custom') raw.last_modified_date = s.date;
  const page = pageNumber(s);
  raw.start_page = page === undefined ? 'not a page' : String(page - 1);
  return raw;
}

/** The page address of a state (empty values and page 1 left out; the range only with `date=custom`). */
export function stateHref(s: SearchState, change: Partial<SearchState> = {}): string {
  const next = { ...s, ...change };
  if (next.date !== 'custom') next.from = next.to = '';
  if (next.page === '1') next.page = '';
  const params = new URLSearchParams();
  for (const name of NAMES) if (next[name] !== '') params.set(name, next[name]);
  const query = params.toString();
  return query === '' ? '/' : `/?${query}`;
}

/** The same query without any filter, on page 1. */
export const withoutFilters = (s: SearchState): string =>
  stateHref({ q: s.q, ds: '', type: '', date: '', from: '', to: '', page: '' });
