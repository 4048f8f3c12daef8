/**
 * DOCX extractor: mammoth's raw-text conversion. The container is first opened and
 * fully inflated with our own ZipReader so entry-count, ratio and size limits hold before
 * mammoth (whose ZIP library has no such guards) sees it. Title and author from core properties.
 * The text is mammoth's document model turned into text as mammoth's raw-text conversion does,
 * except that a manual line, page or column break (<w:br/>) is a line break (mammoth's drops it,
 * running the words on either side together). Footnotes and endnotes, which the raw text leaves
 * out, follow the body, one block per note (separators skipped).
 */
/// <reference path="./mammoth-reader.d.ts" />
import { Buffer } from 'node:buffer';
import { ExtractionError, checkAborted, toExtractionError } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { ZipReader } from '../zip-reader.ts';
import { readCoreProperties } from './ooxml-common.ts';
import { findAll, parseXml, textContent } from '../xml.ts';

/** mammoth's reader modules, loaded on first use so workers start fast. */
let readerModules: Promise<
  [typeof import('mammoth/lib/unzip.js'), typeof import('mammoth/lib/docx/docx-reader.js')]
> | null = null;

type MammothElement = import('mammoth/lib/docx/docx-reader.js').MammothElement;

/** Text of a mammoth document element: mammoth's raw-text rules, plus breaks as line breaks. */
function rawText(el: MammothElement): string {
  if (el.type === 'text') return el.value ?? '';
  if (el.type === 'tab') return '\t';
  if (el.type === 'break') return '\n';
  let out = '';
  for (const c of el.children ?? []) out += rawText(c);
  return el.type === 'paragraph' ? out + '\n\n' : out;
}

export const extractDocx: Extractor = async (input, ctx) => {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  if (!zip.has('word/document.xml')) throw new ExtractionError('CORRUPT', 'docx: word/document.xml is missing');
  zip.validateAll();
  checkAborted(ctx.signal);
  let raw: string;
  try {
    readerModules ??= Promise.all([import('mammoth/lib/unzip.js'), import('mammoth/lib/docx/docx-reader.js')]);
    const [unzip, reader] = await readerModules;
    const file = await unzip.openZip({ buffer: Buffer.from(input.buffer, input.byteOffset, input.byteLength) });
    raw = rawText((await reader.read(file)).value);
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
  for (const [part, local] of [
    ['word/footnotes.xml', 'footnote'],
    ['word/endnotes.xml', 'endnote'],
  ] as const) {
    const xml = zip.readText(part);
    if (!xml) continue;
    for (const note of findAll(parseXml(xml, part), local)) {
      const type = Object.entries(note.attrs).find(([k]) => k === 'w:type' || k.endsWith(':type'))?.[1];
      if (type !== undefined && type !== 'normal') continue;
      const paras = findAll(note.children, 'p')
        .map((p) => textContent(findAll(p.children, 't')))
        .filter((t) => t.trim() !== '');
      if (paras.length > 0) out.push(paras.join('\n'));
    }
  }
  return out;
}
