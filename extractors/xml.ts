/**
 * XML to an ordered tree of elements and text (namespace prefix kept in `tag`, `local`
 * without it) plus query helpers for the OOXML, ODF and XML extractors. Documents without
 * a DOCTYPE (all OOXML and ODF parts) go through a small non-validating tokenizer that is
 * roughly 10x faster than fast-xml-parser; documents with a DOCTYPE go through
 * fast-xml-parser with bounded entity expansion. Nesting is capped at MAX_NESTING either way.
 */
import { XMLParser } from 'fast-xml-parser';
import { ExtractionError } from './errors.ts';

export interface XmlElement {
  tag: string;
  local: string;
  attrs: Record<string, string>;
  children: XmlChild[];
}
export type XmlChild = XmlElement | string;

const MAX_NESTING = 256;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  processEntities: { enabled: true, maxEntitySize: 10_000, maxTotalExpansions: 100_000, maxEntityCount: 100 },
  maxNestedTags: MAX_NESTING,
  ignorePiTags: true,
  jPath: false,
} as ConstructorParameters<typeof XMLParser>[0]);

type RawNode = Record<string, unknown>;

/** Parses an XML document; throws CORRUPT when it is malformed or nested deeper than MAX_NESTING. */
export function parseXml(text: string, what: string): XmlChild[] {
  if (!/<!DOCTYPE/i.test(text.slice(0, 4096))) return tokenize(text, what);
  let raw: RawNode[];
  try {
    raw = parser.parse(text) as RawNode[];
  } catch (err) {
    throw new ExtractionError('CORRUPT', `${what}: invalid XML (${(err as Error).message.slice(0, 200)})`);
  }
  return convert(raw);
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the predefined entities and numeric character references. */
export function decodeXmlText(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (m, ref: string) => {
    if (ref[0] !== '#') return XML_ENTITIES[ref];
    const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
  });
}

const START_TAG = /<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Parses a start tag's attribute text into a map (entity references decoded). */
export function parseAttributes(attrText: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (attrText) {
    ATTR.lastIndex = 0;
    let a: RegExpExecArray | null;
    while ((a = ATTR.exec(attrText)) !== null) attrs[a[1]] = decodeXmlText(a[2] ?? a[3] ?? '');
  }
  return attrs;
}

/** Streaming callbacks of scanXml; `text` receives decoded character data inside the root element. */
export interface XmlHandler {
  open(tag: string, attrText: string, selfClosing: boolean): void;
  close(tag: string): void;
  text(value: string): void;
}

/**
 * Streaming non-validating scanner for DOCTYPE-free XML (no tree is built). Throws CORRUPT on
 * mismatched end tags, malformed tags, several roots, DTDs and nesting deeper than MAX_NESTING;
 * elements left open at the end are tolerated.
 */
export function scanXml(text: string, what: string, h: XmlHandler): void {
  const stack: string[] = [];
  let seenRoot = false;
  let i = 0;
  const n = text.length;
  const bad = (why: string) => new ExtractionError('CORRUPT', `${what}: invalid XML (${why} at offset ${i})`);
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) {
      const t = text.slice(i, end);
      if (stack.length) h.text(decodeXmlText(t));
      else if (t.trim()) throw bad('text outside the root element');
    }
    if (lt < 0) break;
    i = lt;
    const c = text.charCodeAt(i + 1);
    if (c === 47 /* / */) {
      const close = text.indexOf('>', i);
      if (close < 0) break;
      const name = text.slice(i + 2, close).trim();
      if (stack.pop() !== name) throw bad(`unexpected end tag </${name}>`);
      h.close(name);
      i = close + 1;
    } else if (c === 63 /* ? */) {
      const close = text.indexOf('?>', i);
      i = close < 0 ? n : close + 2;
    } else if (c === 33 /* ! */) {
      if (text.startsWith('<!--', i)) {
        const close = text.indexOf('-->', i + 4);
        i = close < 0 ? n : close + 3;
      } else if (text.startsWith('<![CDATA[', i)) {
        const close = text.indexOf(']]>', i + 9);
        if (stack.length) h.text(text.slice(i + 9, close < 0 ? n : close));
        i = close < 0 ? n : close + 3;
      } else throw bad('unsupported markup declaration');
    } else {
      START_TAG.lastIndex = i;
      const m = START_TAG.exec(text);
      if (!m) throw bad('malformed start tag');
      if (!stack.length) {
        if (seenRoot) throw bad('more than one root element');
        seenRoot = true;
      }
      const selfClosing = m[3] === '/';
      if (!selfClosing) {
        if (stack.length >= MAX_NESTING) throw bad(`elements nested deeper than ${MAX_NESTING}`);
        stack.push(m[1]);
      }
      i = START_TAG.lastIndex;
      h.open(m[1], m[2], selfClosing);
    }
  }
}

/** Builds the element tree from scanXml events. */
function tokenize(text: string, what: string): XmlChild[] {
  const root: XmlChild[] = [];
  const stack: XmlElement[] = [];
  let current = root;
  scanXml(text, what, {
    open(tag, attrText, selfClosing) {
      const colon = tag.indexOf(':');
      const el: XmlElement = {
        tag,
        local: colon >= 0 ? tag.slice(colon + 1) : tag,
        attrs: parseAttributes(attrText),
        children: [],
      };
      current.push(el);
      if (!selfClosing) {
        stack.push(el);
        current = el.children;
      }
    },
    close() {
      stack.pop();
      current = stack.length ? stack[stack.length - 1].children : root;
    },
    text(value) {
      current.push(value);
    },
  });
  return root;
}

/** Converts fast-xml-parser's preserveOrder output without recursion (depth is already capped). */
function convert(raw: RawNode[]): XmlChild[] {
  const root: XmlChild[] = [];
  const stack: { src: RawNode[]; dst: XmlChild[] }[] = [{ src: raw, dst: root }];
  while (stack.length) {
    const { src, dst } = stack.pop()!;
    for (const node of src) {
      for (const key of Object.keys(node)) {
        if (key === ':@') continue;
        if (key === '#text') {
          dst.push(String(node[key]));
          continue;
        }
        if (key.startsWith('?') || key === '#comment') continue;
        const attrs = (node[':@'] as Record<string, string> | undefined) ?? {};
        const colon = key.indexOf(':');
        const el: XmlElement = { tag: key, local: colon >= 0 ? key.slice(colon + 1) : key, attrs, children: [] };
        dst.push(el);
        const kids = node[key];
        if (Array.isArray(kids)) stack.push({ src: kids as RawNode[], dst: el.children });
      }
    }
  }
  return root;
}

/** Depth-first iteration over all descendant elements (document order). */
export function* descendants(children: XmlChild[]): Generator<XmlElement> {
  const stack: { list: XmlChild[]; i: number }[] = [{ list: children, i: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i >= top.list.length) {
      stack.pop();
      continue;
    }
    const c = top.list[top.i++];
    if (typeof c === 'string') continue;
    yield c;
    if (c.children.length) stack.push({ list: c.children, i: 0 });
  }
}

/** First descendant element with the given local name. */
export function findFirst(children: XmlChild[], local: string): XmlElement | undefined {
  for (const el of descendants(children)) if (el.local === local) return el;
  return undefined;
}

/** All descendant elements with the given local name. */
export function findAll(children: XmlChild[], local: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const el of descendants(children)) if (el.local === local) out.push(el);
  return out;
}

/** Direct child elements with the given local name. */
export function childrenNamed(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string' && c.local === local);
}

/** Concatenated text of all descendant text nodes. */
export function textContent(children: XmlChild[]): string {
  const parts: string[] = [];
  const stack: XmlChild[][] = [children];
  const idx: number[] = [0];
  while (stack.length) {
    const list = stack[stack.length - 1];
    const i = idx[idx.length - 1];
    if (i >= list.length) {
      stack.pop();
      idx.pop();
      continue;
    }
    idx[idx.length - 1] = i + 1;
    const c = list[i];
    if (typeof c === 'string') parts.push(c);
    else if (c.children.length) {
      stack.push(c.children);
      idx.push(0);
    }
  }
  return parts.join('');
}

/** Attribute by local name (ignores the namespace prefix). */
export function attr(el: XmlElement, local: string): string | undefined {
  const direct = el.attrs[local];
  if (direct !== undefined) return direct;
  for (const k in el.attrs) {
    const colon = k.indexOf(':');
    if (colon >= 0 && k.length - colon - 1 === local.length && k.endsWith(local)) return el.attrs[k];
  }
  return undefined;
}
