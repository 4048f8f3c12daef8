/**
 * DOCX extractor: mammoth's raw-text conversion. The container is first opened and
 * fully inflated with our own ZipReader so entry-count, ratio and size limits hold before
 * mammoth (whose ZIP library has no such guards) sees it. Title and author from core properties.
 */
import { Buffer } from 'node:buffer';
import { ExtractionError, checkAborted, toExtractionError } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { ZipReader } from '../zip-reader.ts';
import { readCoreProperties } from './ooxml-common.ts';

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
  for (const para of raw.split(/\n{2,}/)) if (!b.block(para)) break;
  return b.finish({ title: props.title, author: props.author });
};
