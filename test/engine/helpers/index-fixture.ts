/** Opens an in-memory index through the public API and fills it, one commit per batch (one segment each). */
import { MemoryDirectory, openIndex } from '../../../engine/index.ts';
import type { Index, IndexDocument } from '../../../engine/index.ts';

export const schema = {
  textFields: { title: { boost: 2 }, body: {} },
  keywordFields: ['acl', 'source'],
  numericFields: ['modified'],
};

export async function indexOf(...batches: IndexDocument[][]): Promise<Index> {
  const index = await openIndex({ directory: new MemoryDirectory(), schema, merge: false });
  for (const batch of batches) {
    for (const d of batch) index.writer.add(d);
    await index.writer.commit();
  }
  return index;
}

export function doc(key: string, title: string, body: string, extra: Partial<IndexDocument> = {}): IndexDocument {
  return { key, language: 'en', text: { title, body }, ...extra };
}
