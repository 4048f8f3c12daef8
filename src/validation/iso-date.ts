/**
 * Strict calendar checks for ISO 8601 dates and date-times. `Date.parse` rolls
 * impossible fields over (`2026-02-30` reads as March 2), so every date input
 * is checked here after its own format pattern: month 1-12, a day that exists
 * in that month (leap years included), hour 0-23, minute and second 0-59, and
 * an offset of at most 23:59.
 */

const FIELDS = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2}))?)?/;
const OFFSET = /[+-](\d{2}):?(\d{2})$/;

/** Days in `month` (1-12) of `year` (proleptic Gregorian calendar, as ISO 8601 counts). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether the date and time fields at the start of `text` (`YYYY-MM-DD`, optionally followed by
 * `Thh:mm[:ss]`) and a trailing numeric offset name a real instant. Checks the fields' ranges
 * only: call it on text that already matched the caller's ISO 8601 pattern.
 */
export function hasRealCalendarFields(text: string): boolean {
  const m = FIELDS.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 59)))
    return false;
  if (m[4] !== undefined) {
    const z = OFFSET.exec(text.slice(m[0].length));
    if (z && (Number(z[1]) > 23 || Number(z[2]) > 59)) return false;
  }
  return true;
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch milliseconds of an ISO 8601 date or date-time (NaN when it is neither). A date-time
 * without an offset is UTC, as a date alone is: `Date.parse` would read it in the server's
 * local time zone, so the same document would get a different instant on another server.
 */
export function parseInstant(text: string): number {
  const m = INSTANT.exec(text);
  if (!m) return Number.NaN;
  if (m[2] === undefined) return Date.parse(`${m[1]}T00:00:00Z`);
  let zone = m[3] ?? 'Z';
  if (zone === 'z') zone = 'Z';
  else if (zone.length === 5) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return Date.parse(`${m[1]}T${m[2]}${zone}`);
}
