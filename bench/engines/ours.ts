/**
 * Adapter for this repository's engine (../engine/index.ts): openIndex with a
 * MemoryDirectory (in memory) or an FsDirectory (on disk), schema
 * { title: {boost}, body: {} } plus the keyword columns, English analysis
 * (language 'en' on documents and queries), commitIntervalMs 0 (commits only
 * when the benchmark asks). One searcher is taken per query, as the service does.
 *
 * The engine is imported dynamically and typed locally from the public API in
 * /tmp/team/ENGINE.md, so the harness runs (and typechecks) while the engine is
 * still being written; `oursAvailable()` tells whether openIndex exists yet.
 */
import type { BenchDoc } from '../corpora/types.ts';
import { folderBytes } from './fs-size.ts';
import type { EngineAdapter, EngineOptions, KeywordFilter } from './types.ts';

interface Hit {
  key: string;
  score: number;
}
interface Searcher {
  search(req: { query: string; language?: 'en' | 'de'; filter?: unknown; limit: number }): { total: number; hits: Hit[] };
}
interface Index {
  writer: { add(doc: unknown): void; commit(): Promise<unknown> };
  waitForMerges(): Promise<void>;
  forceMerge(maxSegments?: number): Promise<void>;
  reader: { searcher(): Searcher };
  close(): Promise<void>;
}
interface EngineModule {
  openIndex(options: Record<string, unknown>): Promise<Index>;
  MemoryDirectory: new () => unknown;
  FsDirectory: { open(path: string): Promise<unknown> };
}

/** Queries that hit the engine's clause limit and were shortened (see search()). */
export let clauseLimitHits = 0;

const ENGINE_URL = new URL('../../engine/index.ts', import.meta.url).href;

async function loadEngine(): Promise<EngineModule> {
  return (await import(ENGINE_URL)) as EngineModule;
}

/** True when ../engine/index.ts exists and exports openIndex. */
export async function oursAvailable(): Promise<boolean> {
  try {
    const m = await loadEngine();
    return typeof m.openIndex === 'function';
  } catch {
    return false;
  }
}

/** BENCH_BM25="k1,b" overrides the engine's BM25 defaults (for tuning experiments only). */
function bm25FromEnv(): { k1: number; b: number } | undefined {
  const v = process.env.BENCH_BM25;
  if (!v) return undefined;
  const [k1, b] = v.split(',').map(Number);
  return { k1, b };
}

export async function openOurs(opts: EngineOptions): Promise<EngineAdapter> {
  const engine = await loadEngine();
  const directory = opts.dir ? await engine.FsDirectory.open(opts.dir) : new engine.MemoryDirectory();
  const keywordFields = opts.keywordFields ?? [];
  const index = await engine.openIndex({
    directory,
    schema: { textFields: { title: { boost: opts.titleBoost ?? 2 }, body: {} }, keywordFields, numericFields: [] },
    commitIntervalMs: 0,
    bm25: bm25FromEnv(),
    ...(opts.backgroundMerges === false ? { merge: false } : {}),
  });
  return {
    name: 'ours',
    add(doc: BenchDoc) {
      index.writer.add({ key: doc.id, language: 'en', text: { title: doc.title, body: doc.body }, keywords: doc.keywords });
    },
    async commit() {
      await index.writer.commit();
    },
    search(query: string, k: number, filter?: KeywordFilter) {
      const run = (q: string): string[] =>
        index.reader
          .searcher()
          .search({ query: q, language: 'en', limit: k, filter: filter ? { keyword: filter.field, anyOf: filter.anyOf } : undefined })
          .hits.map((h) => h.key);
      try {
        return run(query);
      } catch (err) {
        if ((err as { code?: string }).code !== 'too_many_clauses') throw err;
        // The engine caps a query at 64 clauses; long relevance queries (CISI, Cranfield) are
        // retried with their distinct words, then with ever fewer of them, and counted.
        clauseLimitHits++;
        let words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
        for (;;) {
          try {
            return run(words.join(' '));
          } catch (e) {
            if ((e as { code?: string }).code !== 'too_many_clauses' || words.length <= 1) throw e;
            words = words.slice(0, Math.floor(words.length * 0.9));
          }
        }
      }
    },
    async settle() {
      await index.waitForMerges();
    },
    async compact() {
      await index.forceMerge(1);
    },
    sizeOnDiskBytes() {
      return opts.dir ? folderBytes(opts.dir) : null;
    },
    async close() {
      await index.close();
    },
  };
}
