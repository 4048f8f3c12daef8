/**
 * HTML and XHTML extractor: visible text (no script, style, template, head, noscript, svg
 * or comment content), block elements become line breaks, table cells tabs, whitespace
 * collapsed outside <pre>; title from <title>, author from <meta name="author">,
 * language hint from <html lang>. Charset: parameter, BOM, <meta charset>, then UTF-8 sniffing.
 * At most MAX_HTML_TAGS tags are read: the text after them is not extracted (`truncated`), so
 * a page of millions of (nested) elements costs a bounded time.
 */
import { TextBuilder } from '../text-builder.ts';
import type { Extraction, Extractor } from '../types.ts';
import { decodeText, normaliseCharset, sniffBom } from '../text-decode.ts';
import { decodeAttributeEntities, decodeEntities } from './html-entities.ts';

const HIDDEN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'svg',
  'math',
  'object',
  'iframe',
  'select',
]);
const BLOCK = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
  'section',
  'article',
  'header',
  'footer',
  'nav',
  'aside',
  'main',
  'blockquote',
  'pre',
  'hr',
  'figure',
  'figcaption',
  'address',
  'form',
  'fieldset',
  'details',
  'summary',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'body',
  'html',
  'option',
]);
const CELL = new Set(['td', 'th']);

/** Tags (elements, comments, doctype) read per document (see the module header). */
export const MAX_HTML_TAGS = 1_000_000;

/** The charset a `<meta charset>` or `<meta http-equiv content="...; charset=...">` declares in the first 2 KB. */
export function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 2048));
  const m = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head);
  return m?.[1];
}

function getAttr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeAttributeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined;
}

/** Converts an HTML string to its visible text plus title, author and language hint. */
export function htmlToText(html: string, maxChars: number): Extraction {
  const out: string[] = [];
  let title: string | undefined;
  let author: string | undefined;
  let lang: string | undefined;
  let hiddenUntil: string | null = null;
  let inTitle = false;
  let titleBuf = '';
  let pre = 0;
  let size = 0;
  let tags = 0;
  const tagRe =
    /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[!?][^>]*>?|<\/?([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>?/g;
  let last = 0;
  let m: RegExpExecArray | null;
  const pushText = (raw: string) => {
    if (!raw) return;
    if (inTitle) {
      titleBuf += raw;
      return;
    }
    if (hiddenUntil) return;
    const t = decodeEntities(pre > 0 ? raw : raw.replace(/\s+/g, ' '));
    out.push(t);
    size += t.length;
  };
  while (size <= maxChars && tags < MAX_HTML_TAGS && (m = tagRe.exec(html)) !== null) {
    tags++;
    pushText(html.slice(last, m.index));
    last = tagRe.lastIndex;
    const name = m[1]?.toLowerCase();
    if (!name) continue; // comment, doctype, processing instruction
    const closing = m[0][1] === '/';
    if (hiddenUntil) {
      if (closing && name === hiddenUntil) hiddenUntil = null;
      else if (!closing && name === 'body' && hiddenUntil === 'head')
        hiddenUntil = null; // unclosed <head>
      else if (!closing && name === 'title' && hiddenUntil === 'head') {
        inTitle = true;
        titleBuf = '';
      } else if (closing && name === 'title') {
        inTitle = false;
        title ??= decodeEntities(titleBuf);
      } else if (!closing && name === 'meta' && getAttr(m[0], 'name')?.toLowerCase() === 'author')
        author ??= getAttr(m[0], 'content');
      continue;
    }
    if (name === 'title') {
      if (closing) {
        inTitle = false;
        title ??= decodeEntities(titleBuf);
      } else {
        inTitle = true;
        titleBuf = '';
      }
      continue;
    }
    if (name === 'html' && !closing) lang = getAttr(m[0], 'lang') ?? getAttr(m[0], 'xml:lang');
    if (name === 'meta' && getAttr(m[0], 'name')?.toLowerCase() === 'author') author ??= getAttr(m[0], 'content');
    if (HIDDEN.has(name) && !closing && !m[0].endsWith('/>')) {
      hiddenUntil = name;
      continue;
    }
    if (name === 'pre') pre += closing ? (pre > 0 ? -1 : 0) : 1;
    if (name === 'img' && !closing) {
      const alt = getAttr(m[0], 'alt');
      if (alt) out.push(' ' + alt + ' ');
    }
    if (BLOCK.has(name)) out.push('\n');
    else if (CELL.has(name) && !closing) out.push('\t');
  }
  const cut = tags >= MAX_HTML_TAGS;
  if (size <= maxChars && !cut) pushText(html.slice(last));
  if (inTitle && title === undefined) title = decodeEntities(titleBuf);
  const text = out
    .join('')
    .split('\n')
    .map((l) => l.replace(/^[ \t]+|[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const b = new TextBuilder(maxChars);
  b.append(text);
  if (cut) b.truncated = true;
  const l = lang?.toLowerCase().slice(0, 2);
  return b.finish({ title, author, language: l === 'de' || l === 'en' ? l : undefined });
}

export const extractHtml: Extractor = async (input, ctx) => {
  const charset = sniffBom(input)
    ? undefined
    : (normaliseCharset(ctx.params.charset) ?? normaliseCharset(sniffMetaCharset(input)) ?? undefined);
  return htmlToText(decodeText(input, charset), ctx.limits.maxOutputChars);
};
