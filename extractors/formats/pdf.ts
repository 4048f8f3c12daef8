/**
 * PDF extractor over unpdf (pdf.js): text per page as `page` sections, title and author
 * from the document info dictionary, page count. Encrypted or malformed files give a typed
 * error; wall time is bounded by the worker pool, output length by the TextBuilder.
 */
import { ExtractionError, checkAborted, toExtractionError } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/** pdf.js is large; it is loaded on first use so workers start fast. */
let unpdf: Promise<typeof import('unpdf')> | null = null;

export const extractPdf: Extractor = async (input, ctx) => {
  unpdf ??= import('unpdf');
  const { getDocumentProxy } = await unpdf;
  // pdf.js may transfer (detach) the buffer it is given, so it gets a private copy.
  const data = input.slice();
  let doc: Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(data, { isEvalSupported: false, stopAtErrors: false, verbosity: 0 } as never);
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new ExtractionError('UNSUPPORTED', 'pdf: document is password-protected');
    throw toExtractionError(err, 'pdf');
  }
  try {
    const b = new TextBuilder(ctx.limits.maxOutputChars);
    for (let i = 1; i <= doc.numPages; i++) {
      checkAborted(ctx.signal);
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as TextItemLike[]) {
        if (typeof item.str === 'string') text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      b.startSection('page', String(i));
      b.append(text.replace(/[ \t]+\n/g, '\n').trim());
      if (b.truncated) break;
    }
    let title: string | undefined;
    let author: string | undefined;
    try {
      const meta = await doc.getMetadata();
      const info = meta.info as Record<string, unknown> | undefined;
      if (typeof info?.Title === 'string') title = info.Title;
      if (typeof info?.Author === 'string') author = info.Author;
    } catch {
      // A broken info dictionary does not invalidate the text.
    }
    return b.finish({ title, author, pageCount: doc.numPages });
  } catch (err) {
    throw toExtractionError(err, 'pdf');
  } finally {
    await doc.destroy().catch(() => undefined);
  }
};
