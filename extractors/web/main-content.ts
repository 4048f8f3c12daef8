/**
 * Main-content extraction (boilerplate removal) for crawled HTML pages:
 * 1. drop navigation, headers, footers, asides, forms, hidden elements and
 *    elements whose id/class/role name them as boilerplate (menus, cookie
 *    banners, share bars, comments, ...);
 * 2. pick the content root: the largest `<main>`/`role=main`, else the largest
 *    `<article>`, else the element that collects the most paragraph text with
 *    the lowest link density (a readability-style score);
 * 3. render it as text: block elements on their own lines, whitespace collapsed.
 * When a density pick holds much less text than the cleaned page, the cleaned
 * page is used instead. Output is cut at `maxChars` on a word boundary.
 * Limits: the tree is capped at 200,000 nodes (html-tree.ts) and every step is linear in the
 * page; web pages run through the extractors' worker pool (`extractMainContentPooled` in
 * extractors/index.ts), which adds the wall-time limit.
 */
import { sniffMetaCharset } from '../formats/html.ts';
import { decodeText, normaliseCharset } from '../text-decode.ts';
import { type HtmlElement, type HtmlNode, parseHtml } from './html-tree.ts';
import { stripSoftHyphens } from '../text-builder.ts';

export interface MainContent {
  title?: string;
  description?: string;
  text: string;
  truncated: boolean;
  /** With `{links: true}`: the page's links, canonical URL, base URL and robots meta (as written). */
  links?: string[];
  canonical?: string;
  base?: string;
  robots?: string;
}

export interface MainContentExtras {
  /** Also answer the links, canonical and base URLs and robots directives (crawlers that follow links). */
  links?: boolean;
}

const DROP_TAGS = new Set([
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'dialog',
  'menu',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'map',
  'input',
  'label',
  'head',
]);
const DROP_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alertdialog',
  'toolbar',
  'tablist',
]);
const NEGATIVE =
  /(^|[\s_-])(nav|navbar|navigation|menu|footer|header|masthead|sidebar|breadcrumbs?|cookies?|consent|banner|ads?|advert\w*|sponsor\w*|social|share|sharing|comments?|related|promo|popup|modal|subscribe|newsletter|skip|widget|pagination|pager)([\s_-]|$)/i;
const POSITIVE = /(^|[\s_-])(article|content|main|post|entry|story|body|text|page)([\s_-]|$)/i;
const KEEP = new Set(['html', 'body', 'main', 'article', '#root']);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
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
  'blockquote',
  'pre',
  'table',
  'tr',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'hr',
  'br',
  'body',
  'center',
]);
const PARAGRAPHS = new Set(['p', 'pre', 'blockquote', 'td', 'dd', 'li']);

function isBoilerplate(el: HtmlElement): boolean {
  if (KEEP.has(el.tag)) return false;
  if (DROP_TAGS.has(el.tag)) return true;
  if ('hidden' in el.attrs || el.attrs['aria-hidden'] === 'true') return true;
  if (DROP_ROLES.has((el.attrs.role ?? '').toLowerCase())) return true;
  const names = `${el.attrs.id ?? ''} ${el.attrs.class ?? ''}`;
  return NEGATIVE.test(names) && !POSITIVE.test(names);
}

/** Remove boilerplate subtrees in place. */
function prune(el: HtmlElement): void {
  el.children = el.children.filter((c) => typeof c === 'string' || !isBoilerplate(c));
  for (const c of el.children) if (typeof c !== 'string') prune(c);
}

interface Stats {
  text: number;
  links: number;
}

/** Text and link-text lengths of every element (memoised by identity). */
function measure(el: HtmlElement, stats: Map<HtmlElement, Stats>, inLink = false): Stats {
  const s: Stats = { text: 0, links: 0 };
  const link = inLink || el.tag === 'a';
  for (const c of el.children) {
    if (typeof c === 'string') {
      const n = c.trim().length;
      s.text += n;
      if (link) s.links += n;
    } else {
      const cs = measure(c, stats, link);
      s.text += cs.text;
      s.links += cs.links;
    }
  }
  stats.set(el, s);
  return s;
}

/** Every element below `root` in document order (an explicit stack: linear in the node count, whatever the nesting). */
function elements(root: HtmlElement): HtmlElement[] {
  const out: HtmlElement[] = [];
  const stack: HtmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el !== root) out.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (typeof c !== 'string') stack.push(c);
    }
  }
  return out;
}

function largest(candidates: HtmlElement[], stats: Map<HtmlElement, Stats>): HtmlElement | undefined {
  let best: HtmlElement | undefined;
  for (const c of candidates) if (!best || stats.get(c)!.text > stats.get(best)!.text) best = c;
  return best;
}

/** Readability-style choice: parents of substantial paragraphs collect their score. */
function densest(root: HtmlElement, stats: Map<HtmlElement, Stats>): HtmlElement | undefined {
  const scores = new Map<HtmlElement, number>();
  const visit = (el: HtmlElement, parent?: HtmlElement, grand?: HtmlElement) => {
    for (const c of el.children) if (typeof c !== 'string') visit(c, el, parent);
    if (!PARAGRAPHS.has(el.tag) || !parent) return;
    const s = stats.get(el)!;
    const own = s.text - s.links;
    if (own < 25) return;
    const score = 1 + Math.min(3, own / 100);
    scores.set(parent, (scores.get(parent) ?? 0) + score);
    if (grand) scores.set(grand, (scores.get(grand) ?? 0) + score / 2);
  };
  visit(root);
  let best: HtmlElement | undefined;
  let bestScore = 0;
  for (const [el, score] of scores) {
    const s = stats.get(el)!;
    const adjusted = score * (1 - (s.text ? s.links / s.text : 0));
    if (adjusted > bestScore) [best, bestScore] = [el, adjusted];
  }
  return best;
}

/** Render an element as text: one line per block, whitespace collapsed. */
export function renderText(el: HtmlElement): string {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const t = line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const walk = (node: HtmlNode) => {
    if (typeof node === 'string') {
      line += node.replace(/\s+/g, ' ');
      return;
    }
    const block = BLOCK.has(node.tag);
    if (block) flush();
    if (node.tag === 'td' || node.tag === 'th') line += ' ';
    for (const c of node.children) walk(c);
    if (block) flush();
  };
  walk(el);
  flush();
  return lines.join('\n');
}

/** Cut `text` at `max` characters on a word boundary, marking the cut with an ellipsis. */
export function truncateText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const cut = text.slice(0, max);
  let space = cut.length - 1;
  while (space > 0 && !/\s/.test(cut[space])) space--;
  return { text: `${(space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd()}…`, truncated: true };
}

/** Extract the main content of an HTML page. */
export function extractMainContent(html: string, maxChars: number, extras: MainContentExtras = {}): MainContent {
  const parsed = parseHtml(html);
  const { root, title, description } = parsed;
  prune(root);
  const stats = new Map<HtmlElement, Stats>();
  measure(root, stats);
  const all = elements(root);
  const hasText = (e: HtmlElement) => stats.get(e)!.text > 0;
  const mains = all.filter((e) => (e.tag === 'main' || (e.attrs.role ?? '').toLowerCase() === 'main') && hasText(e));
  const marked =
    largest(mains, stats) ??
    largest(
      all.filter((e) => e.tag === 'article' && hasText(e)),
      stats,
    );
  let chosen = marked ?? densest(root, stats) ?? root;
  // A density pick holding little of the page's text is a miss: use the whole cleaned page.
  if (!marked && stats.get(chosen)!.text < Math.min(200, stats.get(root)!.text * 0.2)) chosen = root;
  const text = stripSoftHyphens(renderText(chosen));
  const cut = truncateText(text, maxChars);
  const out: MainContent = {
    title: title && stripSoftHyphens(title),
    description: description && stripSoftHyphens(description),
    text: cut.text,
    truncated: cut.truncated,
  };
  if (extras.links) {
    out.links = parsed.links;
    if (parsed.canonical) out.canonical = parsed.canonical;
    if (parsed.base) out.base = parsed.base;
    if (parsed.robots) out.robots = parsed.robots;
  }
  return out;
}

/**
 * The encoding a page declares in its first bytes: the XML declaration's `encoding` (XHTML),
 * else the `<meta charset>`. A UTF-16 declaration read from ASCII-compatible bytes means UTF-8
 * (as in browsers; real UTF-16 carries a BOM, which decodeText reads first).
 */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 1024));
  const xml = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  const label = normaliseCharset(xml ?? sniffMetaCharset(bytes));
  return label === 'utf-16le' || label === 'utf-16be' ? 'utf-8' : (label ?? undefined);
}

/**
 * Main content of an HTML page given as bytes: decoded with a BOM, else `charset` (the
 * Content-Type parameter) when it names a known encoding, else the page's own declaration
 * (XML declaration, `<meta charset>`), else UTF-8 when valid, else windows-1252.
 */
export function extractMainContentFromBytes(
  bytes: Uint8Array,
  charset: string | undefined,
  maxChars: number,
  extras: MainContentExtras = {},
): MainContent {
  return extractMainContent(decodeText(bytes, normaliseCharset(charset) ?? declaredCharset(bytes)), maxChars, extras);
}
