/**
 * How the dashboard writes figures: counts, byte sizes and times (UTC, as
 * the server keeps them) in the page language, and path segments for API
 * addresses built from names.
 */
import { locale, type Lang } from '../../i18n/i18n.ts';

export const count = (lang: Lang, n: number): string => new Intl.NumberFormat(locale(lang)).format(n);

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

export function bytes(lang: Lang, n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale(lang), { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
}

/** An ISO time as the page language writes it, in UTC; '–' for none. */
export function when(lang: Lang, iso: string | null | undefined): string {
  if (!iso) return '–';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return (
    new Intl.DateTimeFormat(locale(lang), {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(ms) + ' UTC'
  );
}

/** A duration in seconds as days, hours and minutes. */
export function duration(lang: Lang, seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const unit = (value: number, u: 'day' | 'hour' | 'minute') =>
    new Intl.NumberFormat(locale(lang), { style: 'unit', unit: u, unitDisplay: 'long' }).format(value);
  return [d > 0 && unit(d, 'day'), (d > 0 || h > 0) && unit(h, 'hour'), unit(m, 'minute')].filter(Boolean).join(' ');
}

/** A path segment for an API address (names may hold any character). */
export const seg = (s: string): string => encodeURIComponent(s);

/** The value of a datetime-local field for an ISO time (UTC), or ''. */
export const localInput = (iso: string | null): string => (iso ? iso.slice(0, 16) : '');
