/**
 * The languages of the pages: German (the default, as the spec's default
 * language `de`) and English. The choice comes from the `es_lang` cookie the
 * language switch sets; without one, from the browser's `Accept-Language`;
 * without a match, German. The same language is passed to searches and chats
 * as the query-analysis hint.
 *
 * `t(lang, key, params)` looks a message up in the language's catalogue
 * (de.ts, en.ts; both must have every key, a type error otherwise) and fills
 * `{name}` placeholders. Messages are plain text: the JSX layer escapes them.
 */
import { de } from './de.ts';
import { en, type Messages } from './en.ts';

export const LANGUAGES = ['de', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'de';
export const LANG_COOKIE = 'es_lang';

export type MessageKey = keyof Messages;

const catalogues: Record<Lang, Messages> = { de, en };

export const isLang = (value: unknown): value is Lang => value === 'de' || value === 'en';

/** The first supported language of an Accept-Language header, by quality; undefined when none. */
export function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  const ranked = header
    .slice(0, 1000)
    .split(',')
    .map((part, order) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), order };
    })
    .filter((x) => x.q > 0 && Number.isFinite(x.q))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked.map((x) => x.lang).find(isLang);
}

/** The page language: the cookie's choice, else Accept-Language, else German. */
export function pickLang(cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  if (isLang(cookie)) return cookie;
  return fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANG;
}

export function t(lang: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  const text = catalogues[lang][key];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The messages of `keys` in `lang`, for the browser modules (sent as JSON, never as script). */
export function clientMessages(lang: Lang, keys: readonly MessageKey[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k, catalogues[lang][k]]));
}

/** BCP 47 tag for Intl formatting. */
export const locale = (lang: Lang): string => (lang === 'de' ? 'de-DE' : 'en-GB');
