/**
 * PPTX extractor: slide text and speaker notes in presentation order (from
 * ppt/presentation.xml relationships, falling back to slide file numbering), one
 * `slide` section per slide, page count = number of slides.
 */
import { ExtractionError, checkAborted } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { attr, childrenNamed, descendants, findAll, findFirst, parseXml } from '../xml.ts';
import type { XmlChild, XmlElement } from '../xml.ts';
import { ZipReader } from '../zip-reader.ts';
import { readCoreProperties, readRelationships } from './ooxml-common.ts';

/** Paragraph texts of DrawingML content (a:p with a:t runs, a:br breaks), skipping slide-number fields. */
export function drawingParagraphs(tree: XmlChild[]): string[] {
  const out: string[] = [];
  for (const p of findAll(tree, 'p')) {
    if (p.tag !== 'a:p') continue;
    let line = '';
    for (const el of descendants(p.children)) {
      if (el.local === 't' && el.tag === 'a:t') line += el.children.filter((c) => typeof c === 'string').join('');
      else if (el.tag === 'a:br') line += '\n';
    }
    for (const fld of childrenNamed(p, 'fld')) if (attr(fld, 'type') === 'slidenum') line = line.replace(/^\d+$/, '');
    if (line.trim()) out.push(line.trim());
  }
  return out;
}

function slideOrder(zip: ZipReader): string[] {
  const pres = zip.readText('ppt/presentation.xml');
  if (pres) {
    const rels = readRelationships(zip, 'ppt/presentation.xml');
    const ids = findAll(parseXml(pres, 'pptx presentation'), 'sldId');
    // The relationship id is the namespaced r:id; the plain `id` attribute is the slide's number.
    const relId = (el: XmlElement) => Object.entries(el.attrs).find(([k]) => k.endsWith(':id'))?.[1] ?? '';
    const order = ids.map((s) => rels.get(relId(s))?.target).filter((t): t is string => !!t && zip.has(t));
    if (order.length) return order;
  }
  const num = (n: string) => Number(/(\d+)\.xml$/.exec(n)?.[1] ?? 0);
  return zip.names(/^ppt\/slides\/slide\d+\.xml$/).sort((a, b) => num(a) - num(b));
}

export const extractPptx: Extractor = async (input, ctx) => {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  if (!zip.has('ppt/presentation.xml') && zip.names(/^ppt\/slides\//).length === 0) {
    throw new ExtractionError('CORRUPT', 'pptx: no presentation part found');
  }
  const slides = slideOrder(zip);
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  let n = 0;
  for (const slide of slides) {
    checkAborted(ctx.signal);
    n++;
    b.startSection('slide', String(n));
    const tree = parseXml(zip.readText(slide) ?? '', `pptx ${slide}`);
    for (const para of drawingParagraphs(tree)) b.block(para);
    const notesRel = [...readRelationships(zip, slide).values()].find((r) => r.type.endsWith('/notesSlide'));
    const notesXml = notesRel ? zip.readText(notesRel.target) : null;
    if (notesXml) {
      const notesTree = parseXml(notesXml, `pptx ${notesRel!.target}`);
      // Only the notes body placeholder, not the slide image or number placeholders.
      const bodies = findAll(notesTree, 'sp').filter(
        (sp) => findFirst(sp.children, 'ph') && attr(findFirst(sp.children, 'ph')!, 'type') === 'body',
      );
      const notes = bodies.flatMap((sp) => drawingParagraphs(sp.children));
      if (notes.length) b.block(notes.join('\n'));
    }
    if (b.truncated) break;
  }
  const props = readCoreProperties(zip);
  return b.finish({ title: props.title, author: props.author, pageCount: slides.length });
};
