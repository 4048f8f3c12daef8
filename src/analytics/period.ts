/**
 * The period of an analytics report, as the admin API and the analytics page
 * take it: `from` and `to` are ISO 8601 dates or date-times (iso-date.ts; a
 * date alone is UTC, and `to` as a date means the end of that day); both are
 * optional (default: the DEFAULT_DAYS days up to now). `from` must not be
 * after `to`, and a period is at most MAX_DAYS days long, so one report reads
 * a bounded number of day files. `limit` (1..100, default 20) is the length
 * of the query lists. Errors are the 422 validation envelope, located in the
 * query string.
 */
import { RequestValidationError, type ValidationItem } from '../errors.ts';
import { parseInstant } from '../validation/iso-date.ts';

const DAY_MS = 86_400_000;
export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface Period {
  fromMs: number;
  toMs: number;
  limit: number;
}

const item = (field: string, msg: string, input: unknown): ValidationItem => ({
  type: 'value_error',
  loc: ['query', field],
  msg: `Value error, ${msg}`,
  input,
});

function instant(text: string, endOfDay: boolean): number {
  if (text.length > 40) return Number.NaN;
  const ms = parseInstant(text);
  return endOfDay && DATE_ONLY.test(text) && !Number.isNaN(ms) ? ms + DAY_MS - 1 : ms;
}

/** The period of raw query values (last value per name); throws RequestValidationError. */
export function parsePeriod(raw: { from?: string; to?: string; limit?: string }, now: number): Period {
  const items: ValidationItem[] = [];
  const to = raw.to === undefined || raw.to === '' ? now : instant(raw.to, true);
  const from = raw.from === undefined || raw.from === '' ? to - DEFAULT_DAYS * DAY_MS + 1 : instant(raw.from, false);
  if (Number.isNaN(to)) items.push(item('to', 'expected an ISO 8601 date or date-time', raw.to));
  if (Number.isNaN(from)) items.push(item('from', 'expected an ISO 8601 date or date-time', raw.from));
  if (items.length === 0 && from > to) items.push(item('from', 'the period starts after it ends', raw.from));
  if (items.length === 0 && to - from >= MAX_DAYS * DAY_MS) {
    items.push(item('from', `a period is at most ${MAX_DAYS} days long`, raw.from));
  }
  let limit = 20;
  if (raw.limit !== undefined && raw.limit !== '') {
    limit = /^\d{1,3}$/.test(raw.limit) ? Number(raw.limit) : 0;
    if (limit < 1 || limit > 100) items.push(item('limit', 'expected a whole number from 1 to 100', raw.limit));
  }
  if (items.length > 0) throw new RequestValidationError(items);
  return { fromMs: from, toMs: to, limit };
}
