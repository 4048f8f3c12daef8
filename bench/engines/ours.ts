/**
 * Adapter for this repository's engine (../engine/index.ts): openIndex with a
 * MemoryDirectory (in memory) or an FsDirectory (on disk), schema
 * { title: {boost}, body: {} } plus the keyword columns, English analysis
 * (language 'en' on documents and queries), commitIntervalMs 0 (commits only
 * when the benchmark asks). One searcher is taken per query, as the service does.
 *
 * The engine is imported statically, as the peers are, so loading its modules
 * is not part of any timed step.
 */
import * as engine from '../../engine/index.ts';
import type { BenchDoc } from '../corpora/types.ts';
import { folderBytes } from './fs-size.ts';
import type { EngineAdapter, EngineOptions, KeywordFilter } from './types.ts';

/** Queries that hit the engine's clause limit and were shortened (see search()). */
export let clauseLimitHits = 0;

/** BENCH_BM25="k1,b" overrides the engine's BM25 defaults (for tuning experiments only). */
function bm25FromEnv(): { k1: number; b: number } | undefined {
  const v = process.env.BENCH_BM25;
  if (!v) return undefined;
  const [k1, b] = v.split(',').map(Number);
  return { k1, b };
}

export async function openOurs(opts: EngineOptions): Promise<EngineAdapter> {
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
      index.writer.add({
        key: doc.id,
        language: 'en',
        text: { title: doc.title, body: doc.body },
        keywords: doc.keywords,
      });
    },
    async commit() {
      await index.writer.commit();
    },
    search(query: string, k: number, filter?: KeywordFilter) {
      const run = (q: string): string[] =>
        index.reader
          .searcher()
          .search({
            query: q,
            language: 'en',
            limit: k,
            filter: filter ? { keyword: filter.field, anyOf: filter.anyOf } : undefined,
          })
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
