/**
 * Sitemaps (sitemaps.org protocol): a `<urlset>` lists page URLs in `<url><loc>`, a
 * `<sitemapindex>` lists further sitemaps in `<sitemap><loc>`. Read by a linear scan for `<loc>`
 * elements (namespace prefixes allowed, CDATA and the XML entities decoded), not by an XML
 * parser, so a hostile file costs at most one pass; at most SITEMAP_MAX_URLS locations per file
 * (the protocol's limit). A gzip-compressed file (`.xml.gz`) is inflated first, to at most
 * SITEMAP_MAX_BYTES.
 */
import { gunzipSync } from 'node:zlib';

export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface Sitemap {
  kind: 'urlset' | 'index';
  locs: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(text);
  if (cdata) return cdata[1];
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (all, name: string) => {
    if (name[0] !== '#') return ENTITIES[name] ?? all;
    const cp = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/** The bytes of a sitemap as text (inflated when gzip-compressed). */
export function sitemapText(bytes: Uint8Array): string {
  const data =
    bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: SITEMAP_MAX_BYTES }) : bytes;
  return new TextDecoder().decode(data);
}

export function parseSitemap(xml: string): Sitemap {
  const kind = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml) ? 'index' : 'urlset';
  const locs: string[] = [];
  const open = /<(?:[\w-]+:)?loc\s*>/gi;
  let m: RegExpExecArray | null;
  while (locs.length < SITEMAP_MAX_URLS && (m = open.exec(xml)) !== null) {
    const start = m.index + m[0].length;
    const cdata = xml.startsWith('<![CDATA[', start) ? xml.indexOf(']]>', start) : start;
    const end = cdata < 0 ? -1 : xml.indexOf('<', cdata);
    if (end < 0) break;
    const loc = decodeXml(xml.slice(start, end).trim()).trim();
    if (loc) locs.push(loc);
    open.lastIndex = end;
  }
  return { kind, locs };
}
