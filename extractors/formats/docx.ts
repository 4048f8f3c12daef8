/**
 * DOCX extractor: mammoth's raw-text conversion. The container is first opened and
 * fully inflated with our own ZipReader so entry-count, ratio and size limits hold before
 * mammoth (whose ZIP library has no such guards) sees it. Title and author from core properties.
 * Footnotes and endnotes, which mammoth's raw text leaves out, follow the body, one block per
 * note (separators skipped). Known gap: mammoth's raw text drops manual line and page breaks
 * (<w:br/>), so the words on either side of one run together.
 */
import { Buffer } from 'node:buffer';
import { ExtractionError, checkAborted, toExtractionError } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { ZipReader } from '../zip-reader.ts';
import { readCoreProperties } from './ooxml-common.ts';
import { findAll, parseXml, textContent } from '../xml.ts';

/** mammoth is loaded on first use so workers start fast. */
let mammothModule: Promise<typeof import('mammoth')> | null = null;

export const extractDocx: Extractor = async (input, ctx) => {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  if (!zip.has('word/document.xml')) throw new ExtractionError('CORRUPT', 'docx: word/document.xml is missing');
  zip.validateAll();
  checkAborted(ctx.signal);
  let raw: string;
  try {
    mammothModule ??= import('mammoth');
    const loaded = await mammothModule;
    const mammoth = (loaded as { default?: typeof loaded }).default ?? loaded;
    const result = await mammoth.extractRawText({ buffer: Buffer.from(input.buffer, input.byteOffset, input.byteLength) });
    raw = result.value;
  } catch (err) {
    throw toExtractionError(err, 'docx');
  }
  const props = readCoreProperties(zip);
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  let room = true;
  for (const para of raw.split(/\n{2,}/)) if (!(room = b.block(para))) break;
  if (room) {
    for (const note of noteTexts(zip)) if (!b.block(note)) break;
  }
  return b.finish({ title: props.title, author: props.author });
};

/** Texts of the footnotes and endnotes (not their separators), in part and document order. */
function noteTexts(zip: ZipReader): string[] {
  const out: string[] = [];
  for (const [part, local] of [['word/footnotes.xml', 'footnote'], ['word/endnotes.xml', 'endnote']] as const) {
    const xml = zip.readText(part);
    if (!xml) continue;
    for (const note of findAll(parseXml(xml, part), local)) {
      const type = Object.entries(note.attrs).find(([k]) => k === 'w:type' || k.endsWith(':type'))?.[1];
      if (type !== undefined && type !== 'normal') continue;
      const paras = findAll(note.children, 'p').map((p) => textContent(findAll(p.children, 't'))).filter((t) => t.trim() !== '');
      if (paras.length > 0) out.push(paras.join('\n'));
    }
  }
  return out;
}
