/**
 * The one reading of ISO 8601 dates and date-times for every date input of the
 * service (document `last_modified`, DATE custom properties, key `expires_at`,
 * the search's custom date range after its own stricter pattern).
 *
 * Accepted: `YYYY-MM-DD`, optionally followed by `T`, `t` or a space and
 * `hh:mm`, `hh:mm:ss` or `hh:mm:ss.fraction` (any number of digits; milliseconds
 * are kept), then optionally `Z`, `z`, `+hh:mm`, `-hh:mm`, `+hhmm` or `-hhmm`.
 * A date alone and a date-time without an offset are UTC (`Date.parse` would read
 * the latter in the server's local time zone, so the same document would get a
 * different instant on another server).
 *
 * Refused: every other form (week and ordinal dates, basic format, a zone after a
 * bare date, a comma as decimal sign, surrounding whitespace), and fields that do
 * not name a real instant: month 1-12, a day that exists in that month (leap
 * years included), hour 0-23, minute and second 0-59, offset at most 23:59.
 * `Date.parse` alone would roll `2026-02-30` over to March 2.
 */

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/** Days in `month` (1-12) of `year` (proleptic Gregorian calendar, as ISO 8601 counts). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Epoch milliseconds of an accepted ISO 8601 date or date-time; NaN for anything else. */
export function parseInstant(text: string): number {
  const m = ISO_8601.exec(text);
  if (!m) return Number.NaN;
  const [, year, month, day, hour, minute, second = '00', fraction, , sign, offsetH, offsetM] = m;
  if (Number(month) < 1 || Number(month) > 12) return Number.NaN;
  if (Number(day) < 1 || Number(day) > daysInMonth(Number(year), Number(month))) return Number.NaN;
  const date = `${year}-${month}-${day}`;
  if (hour === undefined) return Date.parse(`${date}T00:00:00Z`);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return Number.NaN;
  if (sign !== undefined && (Number(offsetH) > 23 || Number(offsetM) > 59)) return Number.NaN;
  // Milliseconds kept, further digits cut (as Date.parse does); the offset in the form Date.parse reads.
  const ms = fraction === undefined ? '' : `.${fraction.slice(1, 4).padEnd(3, '0')}`;
  const zone = sign === undefined ? 'Z' : `${sign}${offsetH}:${offsetM}`;
  return Date.parse(`${date}T${hour}:${minute}:${second}${ms}${zone}`);
}

/** Whether `text` is an accepted ISO 8601 date or date-time naming a real instant. */
export function isIsoInstant(text: string): boolean {
  return !Number.isNaN(parseInstant(text));
}
