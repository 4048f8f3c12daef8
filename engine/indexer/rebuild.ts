/**
 * Rebuild of an index from what it stores: every live document of the last commit is read
 * back (key, language, text fields from the stored payload, keyword and numeric columns,
 * stored fields) and added again, so its terms are produced by the current analysis and its
 * segment is written in the current format; each re-add replaces the old copy by key. The
 * caller makes sure nothing else writes meanwhile (an older copy would replace a newer one).
 */
import type { IndexDocument, IndexSchema } from '../document.ts';
import type { IndexWriter } from './index-writer.ts';

export interface RebuildProgress {
  done: number;
  total: number;
}

/** Documents re-added between yields to the event loop (lets flushes proceed). */
const BATCH = 500;

export async function rebuildFromStored(
  writer: IndexWriter,
  schema: IndexSchema,
  onProgress?: (p: RebuildProgress) => void,
): Promise<RebuildProgress> {
  const { views } = writer.committedSnapshot();
  const total = views.reduce((n, v) => n + v.numDocs, 0);
  let done = 0;
  for (const view of views) {
    for (let d = 0; d < view.maxDoc; d++) {
      if (view.isDeleted(d)) continue;
      const keywords: Record<string, string[]> = {};
      for (const f of schema.keywordFields ?? []) {
        const values = view.keywords(f, d);
        if (values.length > 0) keywords[f] = [...values];
      }
      const numbers: Record<string, number> = {};
      for (const f of schema.numericFields ?? []) {
        const value = view.numeric(f, d);
        if (value !== undefined) numbers[f] = value;
      }
      const doc: IndexDocument = {
        key: view.key(d),
        language: view.language(d),
        text: view.text(d),
        keywords,
        numbers,
        stored: view.stored(d),
      };
      writer.add(doc);
      done++;
      if (done % BATCH === 0) {
        onProgress?.({ done, total });
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  await writer.commit();
  onProgress?.({ done, total });
  return { done, total };
}
