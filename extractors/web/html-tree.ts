/**
 * A small, forgiving HTML tree builder for main-content extraction: elements
 * keep their tag, the attributes that matter for boilerplate detection (id,
 * class, role, hidden, aria-hidden) and their children; text is entity-decoded.
 * Raw-text elements (script, style, ...) are skipped whole; `<title>` and the
 * meta description are collected on the way, and so are the links (`<a>`, `<area>`), the
 * canonical URL, the base URL and the robots meta directives. Unknown close tags are ignored and
 * a close tag closes every element opened after its match, as browsers do.
 *
 * Limits: at most `maxNodes` nodes are built; the rest of the input is ignored. Elements
 * nest at most MAX_HTML_DEPTH deep: deeper ones are added as children of the element at
 * that depth, as browsers do (Blink caps at 512), so no tree is deeper than that however
 * the page nests (a walk of it cannot overflow the stack).
 */
import { decodeAttributeEntities, decodeEntities } from '../formats/html-entities.ts';

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

export interface ParsedHtml {
  root: HtmlElement;
  title?: string;
  description?: string;
  /** `href` of every `<a>` and `<area>`, as written (at most MAX_LINKS). */
  links: string[];
  /** `<link rel="canonical" href>`, `<base href>`, `<meta name="robots" content>` (the first of each). */
  canonical?: string;
  base?: string;
  robots?: string;
}

/** Links collected per page at most. */
export const MAX_LINKS = 10_000;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'param',
]);
/** Elements whose content is never page text; skipped up to their close tag. */
const RAW = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'textarea',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'svg',
  'math',
]);
/** Deepest element nesting built (see the module header). */
export const MAX_HTML_DEPTH = 512;

const KEPT_ATTRS = new Set(['id', 'class', 'role', 'hidden', 'aria-hidden', 'name', 'property', 'content']);
/** Attributes read for links (not kept in the tree). */
const LINK_ATTRS = new Set(['href', 'rel']);
const LINK_TAGS = new Set(['a', 'area', 'link', 'base']);

// A start tag without its `>` (or with an unclosed quote) runs to the end of the input, as in browsers:
// every `<name` matches at once, so no later `<` rescans the rest of the page (linear time).
const TAG_RE =
  /<!--[\s\S]*?(?:-->|$)|<[!?][^>]*>?|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*(?:"|$)|'[^']*(?:'|$))*)(?:>|$)/g;
const ATTR_RE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function parseAttrs(raw: string, kept: ReadonlySet<string> = KEPT_ATTRS): Record<string, string> {
  const attrs: Record<string, string> = {};
  ATTR_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTR_RE.exec(raw)) !== null) {
    const name = m[1].toLowerCase();
    if (kept.has(name) && !(name in attrs)) attrs[name] = decodeAttributeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

const clean = (s: string) => decodeEntities(s).replace(/\s+/g, ' ').trim();

/** Build the tree of `html`; never throws. */
export function parseHtml(html: string, maxNodes = 200_000): ParsedHtml {
  const root: HtmlElement = { tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  let title: string | undefined;
  let description: string | undefined;
  let ogTitle: string | undefined;
  const links: string[] = [];
  let canonical: string | undefined;
  let base: string | undefined;
  let robots: string | undefined;
  let nodes = 0;
  let last = 0;
  // Open elements per tag: a close tag matching none is ignored in O(1); a match pops what it scans.
  const open = new Map<string, number>();
  const addText = (raw: string) => {
    if (!raw) return;
    stack[stack.length - 1].children.push(decodeEntities(raw));
    nodes++;
  };
  TAG_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (nodes < maxNodes && (m = TAG_RE.exec(html)) !== null) {
    addText(html.slice(last, m.index));
    last = TAG_RE.lastIndex;
    const name = m[2]?.toLowerCase();
    if (!name) continue; // comment, doctype, processing instruction
    if (m[1] === '/') {
      if (!open.get(name)) continue;
      let at = stack.length - 1;
      while (stack[at].tag !== name) at--;
      for (let i = at; i < stack.length; i++) open.set(stack[i].tag, open.get(stack[i].tag)! - 1);
      stack.length = at;
      continue;
    }
    if (name === 'title' || RAW.has(name)) {
      const closeRe = new RegExp(`</${name}[\\s>/]`, 'gi');
      closeRe.lastIndex = last;
      const end = closeRe.exec(html)?.index ?? -1;
      const stop = end < 0 ? html.length : end;
      if (name === 'title' && title === undefined) title = clean(html.slice(last, stop));
      const close = end < 0 ? html.length : html.indexOf('>', end);
      last = close < 0 ? html.length : close + 1;
      TAG_RE.lastIndex = last;
      continue;
    }
    const attrs = parseAttrs(m[3] ?? '');
    if (LINK_TAGS.has(name)) {
      const ref = parseAttrs(m[3] ?? '', LINK_ATTRS);
      const href = ref.href?.trim();
      if (href) {
        if (name === 'base') base ??= href;
        else if (name === 'link') {
          if (/(^|\s)canonical(\s|$)/i.test(ref.rel ?? '')) canonical ??= href;
        } else if (links.length < MAX_LINKS) links.push(href);
      }
    }
    if (name === 'meta') {
      const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
      if (key === 'robots' && attrs.content && robots === undefined) robots = attrs.content;
      if ((key === 'description' || key === 'og:description') && attrs.content && !description)
        description = clean(attrs.content);
      if (key === 'og:title' && attrs.content) ogTitle = clean(attrs.content);
      continue;
    }
    const el: HtmlElement = { tag: name, attrs, children: [] };
    stack[stack.length - 1].children.push(el);
    nodes++;
    if (!VOID.has(name) && !(m[3] ?? '').trimEnd().endsWith('/') && stack.length <= MAX_HTML_DEPTH) {
      stack.push(el);
      open.set(name, (open.get(name) ?? 0) + 1);
    }
  }
  if (nodes < maxNodes) addText(html.slice(last));
  return { root, title: title || ogTitle || undefined, description, links, canonical, base, robots };
}
