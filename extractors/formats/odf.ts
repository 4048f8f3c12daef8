/**
 * OpenDocument extractors (ODT, ODS, ODP) over content.xml and meta.xml:
 * text paragraphs and headings (text:s, text:tab, text:line-break honoured); ODS tables
 * (streamed) as `sheet` sections with tab-separated cells; ODP pages as `slide` sections with notes.
 */
import { ExtractionError, checkAborted } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extraction, ExtractContext, Extractor } from '../types.ts';
import {
  attr,
  childrenNamed,
  descendants,
  findAll,
  findFirst,
  parseAttributes,
  parseXml,
  scanXml,
  textContent,
} from '../xml.ts';
import type { XmlChild, XmlElement } from '../xml.ts';
import { ZipReader } from '../zip-reader.ts';

/** Inline text of a paragraph; nested paragraphs (text boxes, annotations) are skipped here and emitted on their own. */
function inlineText(children: XmlChild[]): string {
  let s = '';
  for (const c of children) {
    if (typeof c === 'string') s += c;
    else if (c.tag === 'text:s') s += ' '.repeat(Math.min(100, Number(attr(c, 'c') ?? 1) || 1));
    else if (c.tag === 'text:tab') s += '\t';
    else if (c.tag === 'text:line-break') s += '\n';
    else if (isParagraph(c) || c.tag === 'office:annotation' || c.tag === 'text:note-citation')
      continue; // note bodies follow as paragraphs
    else s += inlineText(c.children);
  }
  return s;
}

function isParagraph(el: XmlElement): boolean {
  return el.tag === 'text:p' || el.tag === 'text:h';
}

/** Paragraph texts in document order below the given nodes (nested paragraphs after their parent). */
export function odfParagraphs(children: XmlChild[]): string[] {
  const out: string[] = [];
  for (const el of descendants(children)) {
    if (!isParagraph(el)) continue;
    const t = inlineText(el.children).trim();
    if (t) out.push(t);
  }
  return out;
}

function openOdf(
  input: Uint8Array,
  ctx: ExtractContext,
  what: string,
): { body: XmlElement; meta: Partial<Extraction> } {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  const content = zip.readText('content.xml');
  if (content === null) throw new ExtractionError('CORRUPT', `${what}: content.xml is missing`);
  const tree = parseXml(content, `${what} content`);
  const body = findFirst(tree, 'body');
  if (!body) throw new ExtractionError('CORRUPT', `${what}: office:body is missing`);
  return { body, meta: readOdfMeta(zip, what) };
}

/** Title and author (initial creator, else last editor) from meta.xml. */
function readOdfMeta(zip: ZipReader, what: string): Partial<Extraction> {
  const meta: Partial<Extraction> = {};
  const metaXml = zip.readText('meta.xml');
  if (metaXml) {
    const m = parseXml(metaXml, `${what} meta`);
    const title = findFirst(m, 'title');
    const author = findFirst(m, 'initial-creator') ?? findFirst(m, 'creator');
    if (title) meta.title = textContent(title.children);
    if (author) meta.author = textContent(author.children);
  }
  return meta;
}

export const extractOdt: Extractor = async (input, ctx) => {
  const { body, meta } = openOdf(input, ctx, 'odt');
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  for (const p of odfParagraphs(body.children)) if (!b.block(p)) break;
  return b.finish(meta);
};

/**
 * Streams ODS tables from content.xml (no tree: spreadsheets are the largest documents):
 * one `sheet` section per table:table, cells tab-separated, paragraphs inside a cell joined by
 * a space, annotations skipped, repeated cells and rows emitted once.
 */
export const extractOds: Extractor = async (input, ctx) => {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  const content = zip.readText('content.xml');
  if (content === null) throw new ExtractionError('CORRUPT', 'ods: content.xml is missing');
  const meta = readOdfMeta(zip, 'ods');
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  let tables = 0;
  let cells: string[] = [];
  let cell: string | null = null;
  let paragraphs = 0;
  let skip = 0;
  scanXml(content, 'ods content', {
    open(tag, attrText, selfClosing) {
      if (skip) {
        if (!selfClosing) skip++;
        return;
      }
      if (tag === 'office:annotation' && !selfClosing) skip = 1;
      else if (tag === 'table:table') {
        tables++;
        const name = parseAttributes(attrText)['table:name'] ?? '';
        b.startSection('sheet', name);
        b.append(name);
      } else if (tag === 'table:table-row') cells = [];
      else if (tag === 'table:table-cell' || tag === 'table:covered-table-cell') {
        if (selfClosing) cells.push('');
        else {
          cell = '';
          paragraphs = 0;
        }
      } else if (cell !== null && (tag === 'text:p' || tag === 'text:h')) {
        if (paragraphs++ > 0) cell += ' ';
      } else if (cell !== null && (tag === 'text:s' || tag === 'text:tab' || tag === 'text:line-break')) cell += ' ';
    },
    close(tag) {
      if (skip) {
        skip--;
        return;
      }
      if ((tag === 'table:table-cell' || tag === 'table:covered-table-cell') && cell !== null) {
        cells.push(cell.replace(/\s+/g, ' ').trim());
        cell = null;
      } else if (tag === 'table:table-row') {
        while (cells.length && !cells[cells.length - 1]) cells.pop();
        if (cells.length) b.append('\n' + cells.join('\t'));
      }
    },
    text(t) {
      if (!skip && cell !== null) cell += t;
    },
  });
  return b.finish({ ...meta, pageCount: tables });
};

export const extractOdp: Extractor = async (input, ctx) => {
  const { body, meta } = openOdf(input, ctx, 'odp');
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  const pages = findAll(body.children, 'page').filter((p) => p.tag === 'draw:page');
  let n = 0;
  for (const page of pages) {
    n++;
    b.startSection('slide', attr(page, 'name') ?? String(n));
    const notes = childrenNamed(page, 'notes');
    const slideChildren = page.children.filter((c) => typeof c === 'string' || c.local !== 'notes');
    for (const p of odfParagraphs(slideChildren)) b.block(p);
    for (const note of notes) for (const p of odfParagraphs(note.children)) b.block(p);
    if (b.truncated) break;
  }
  return b.finish({ ...meta, pageCount: pages.length });
};
