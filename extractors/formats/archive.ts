/**
 * ZIP archive extractor (application/zip): lists entry names and, within limits.maxDepth,
 * extracts the text of each file entry through the registry (media type from the file
 * extension), one `part` section per entry. Entry-count, ratio and total-size limits come
 * from ZipReader; entries that fail to extract contribute only their name.
 */
import { ExtractionError, checkAborted } from '../errors.ts';
import { extractNested } from '../registry.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { ZipReader } from '../zip-reader.ts';

export const extractZipArchive: Extractor = async (input, ctx) => {
  const zip = new ZipReader(input, ctx.limits, ctx.budget);
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  const descend = ctx.depth + 1 <= ctx.limits.maxDepth;
  for (const entry of zip.entries) {
    checkAborted(ctx.signal);
    if (entry.name.endsWith('/')) continue;
    b.startSection('part', entry.name);
    b.append(entry.name);
    if (!descend) continue;
    let text = '';
    try {
      const data = zip.readEntry(entry);
      text = (await extractNested(data, '', entry.name.split('/').pop(), ctx)).text;
    } catch (err) {
      // Limits of the whole archive stay fatal; a single broken member is skipped.
      if (
        err instanceof ExtractionError &&
        (err.code === 'ZIP_BOMB' || err.code === 'ABORTED' || err.code === 'TOO_LARGE')
      )
        throw err;
    }
    if (text) b.append('\n' + text);
    if (b.truncated) break;
  }
  return b.finish();
};
