/**
 * Test helpers for the storage tests: schemas, documents and a reader-side view of the
 * live documents of the current snapshot (through the SegmentReader contract).
 */
import type { Index, IndexDocument, IndexSchema } from '../../../engine/index.ts';

export const SCHEMA: IndexSchema = {
  textFields: { title: { boost: 2 }, body: {} },
  keywordFields: ['ds', 'acl'],
  numericFields: ['modified'],
};

export function makeDoc(i: number, overrides: Partial<IndexDocument> = {}): IndexDocument {
  return {
    key: `k${i}`,
    language: 'en',
    text: { title: `title number ${i}`, body: `body text for document ${i} with word w${i % 10}` },
    keywords: { ds: [`ds${i % 3}`], acl: [`u${i % 5}`, 'all'] },
    numbers: { modified: 1000 + i },
    stored: { n: i },
    ...overrides,
  };
}

export interface LiveDoc {
  key: string;
  stored: Record<string, unknown>;
  body: string;
}

/** Live docs of the reader's current snapshot, by key. */
export function liveDocs(index: Index): Map<string, LiveDoc> {
  const out = new Map<string, LiveDoc>();
  for (const seg of index.reader.segments()) {
    for (let d = 0; d < seg.maxDoc; d++) {
      if (seg.isDeleted(d)) continue;
      const key = seg.key(d);
      if (out.has(key)) throw new Error(`duplicate live key ${key}`);
      out.set(key, { key, stored: seg.stored(d), body: seg.text(d).body ?? '' });
    }
  }
  return out;
}
