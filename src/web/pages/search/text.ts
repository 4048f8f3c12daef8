/**
 * Turning the API's strings into safe pieces of a page, without ever handing
 * markup through: highlight fragments (HTML with `<em>` around matches and
 * escaped text, search/markup.ts) are parsed into text runs with a `mark`
 * flag, which JSX renders escaped; a `path_preview` becomes a link only when
 * the browser would resolve it to an http(s) address; dates are formatted
 * with Intl in the page language.
 */
import { locale, type Lang } from '../../i18n/i18n.ts';

export interface Run {
  text: string;
  mark: boolean;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The runs of a highlight fragment: `<em>` and `</em>` switch marking on and off, entities are
 * decoded, and anything else (including text that looks like a tag) stays literal text.
 */
export function highlightRuns(fragment: string): Run[] {
  const runs: Run[] = [];
  let mark = false;
  for (const part of fragment.split(/(<\/?em>)/i)) {
    if (/^<em>$/i.test(part)) mark = true;
    else if (/^<\/em>$/i.test(part)) mark = false;
    else if (part !== '') {
      const text = decodeEntities(part);
      const last = runs[runs.length - 1];
      if (last && last.mark === mark) last.text += text;
      else runs.push({ text, mark });
    }
  }
  return runs;
}

const BASE = 'https://relative.invalid/';

/**
 * `url` when it opens an http(s) address (absolute, or relative to this page), else undefined.
 * Resolved with the WHATWG URL parser, as the browser will: `java\tscript:` and ` javascript:`
 * are recognised for what they are.
 */
export function safeHref(url: string): string | undefined {
  if (url.trim() === '' || url.length > 8192) return undefined;
  try {
    const resolved = new URL(url, BASE);
    return resolved.protocol === 'https:' || resolved.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const formats = new Map<Lang, Intl.DateTimeFormat>();

/** The day of an ISO timestamp in the page language (UTC, as stored), or undefined when it is no date. */
export function formatDay(lang: Lang, iso: string): string | undefined {
  const ms = Date.parse(iso);
  if (iso === '' || !Number.isFinite(ms)) return undefined;
  let f = formats.get(lang);
  if (!f) {
    f = new Intl.DateTimeFormat(locale(lang), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    formats.set(lang, f);
  }
  return f.format(ms);
}
