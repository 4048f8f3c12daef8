/**
 * MiniSearch 7 adapter: fields title + text, default search options (OR
 * combination, BM25+ with k=1.2, b=0.7, d=0.5, no prefix, no fuzzy, no boost).
 * Keyword filters are applied through MiniSearch's `filter` callback over a
 * side table. On disk: the JSON serialisation is written at commit.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { BenchDoc } from '../corpora/types.ts';
import type { EngineAdapter, EngineOptions, KeywordFilter } from './types.ts';

interface MsDoc {
  id: number;
  title: string;
  text: string;
}

const MS_OPTIONS = { fields: ['title', 'text'], idField: 'id' };

export async function openMiniSearch(opts: EngineOptions): Promise<EngineAdapter> {
  const file = opts.dir ? join(opts.dir, 'minisearch.json') : null;
  let ms: MiniSearch<MsDoc>;
  let ids: string[] = [];
  let keywords: Record<string, string[]>[] = [];
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      index: unknown;
      ids: string[];
      keywords: Record<string, string[]>[];
    };
    ms = MiniSearch.loadJS(saved.index as Parameters<typeof MiniSearch.loadJS>[0], MS_OPTIONS) as MiniSearch<MsDoc>;
    ids = saved.ids;
    keywords = saved.keywords;
  } else {
    ms = new MiniSearch<MsDoc>(MS_OPTIONS);
  }
  const hasKeywords = (opts.keywordFields ?? []).length > 0;
  return {
    name: 'minisearch',
    add(doc: BenchDoc) {
      const n = ids.length;
      ids.push(doc.id);
      if (hasKeywords) keywords.push(doc.keywords ?? {});
      ms.add({ id: n, title: doc.title, text: doc.body });
    },
    async commit() {
      if (!file || !opts.dir) return;
      mkdirSync(opts.dir, { recursive: true });
      writeFileSync(file, JSON.stringify({ index: ms.toJSON(), ids, keywords }));
    },
    search(query: string, k: number, filter?: KeywordFilter) {
      const f = filter ? new Set(filter.anyOf) : null;
      const results = ms.search(
        query,
        f ? { filter: (r) => (keywords[r.id as number]?.[filter!.field] ?? []).some((v) => f.has(v)) } : {},
      );
      const out: string[] = [];
      for (let i = 0; i < Math.min(k, results.length); i++) out.push(ids[results[i].id as number]);
      return out;
    },
    async settle() {
      // no background work
    },
    async compact() {
      // one in-memory structure
    },
    sizeOnDiskBytes() {
      return file && existsSync(file) ? statSync(file).size : null;
    },
    async close() {},
  };
}
