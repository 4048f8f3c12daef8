/**
 * Public API of the embedded search engine: openIndex() over a Directory, returning the
 * IndexWriter (add / delete / deleteByKeyword / commit), the IndexReader (searcher snapshots
 * reloaded on commit) and close(). Also re-exports the document model, the directories,
 * the errors and the searcher types.
 */
import type { Directory } from './directory/types.ts';
import type { Bm25Params } from './similarity/bm25.ts';
import type { IndexSchema, EngineEvent } from './document.ts';
import { EngineError } from './errors.ts';
import { validateDisplayFields } from './document.ts';
import { openCommit } from './commit/commit-open.ts';
import { IndexWriter } from './indexer/index-writer.ts';
import { rebuildFromStored, type RebuildProgress } from './indexer/rebuild.ts';
import { IndexReader } from './reader/index-reader.ts';
import { MergeScheduler, type CompactionOptions, type MergePolicyOptions } from './merge/merge-scheduler.ts';

export type { Directory, DirectoryLock } from './directory/types.ts';
export { FsDirectory } from './directory/fs-directory.ts';
export { MemoryDirectory } from './directory/memory-directory.ts';
export { EngineError, isEngineError, type EngineErrorCode } from './errors.ts';
export type { IndexDocument, IndexSchema, CommitInfo, EngineEvent } from './document.ts';
export { LIMITS } from './document.ts';
export { IndexWriter, type CommitSnapshotFiles } from './indexer/index-writer.ts';
export type { RebuildProgress } from './indexer/rebuild.ts';
export { IndexReader } from './reader/index-reader.ts';
export {
  SnapshotReader,
  type SharedSnapshot,
  type SharedSegment,
  type SnapshotReaderOptions,
} from './reader/shared-snapshot.ts';
export { Searcher } from './search/searcher.ts';
export { QueryError, type QueryErrorCode } from './query/parser.ts';
export type { SearcherOptions } from './search/searcher.ts';
export type * from './query/types.ts';
export type { Bm25Params } from './similarity/bm25.ts';
export type { CompactionOptions, MergePolicyOptions } from './merge/merge-scheduler.ts';
export type { Language } from './analysis/types.ts';
export { ANALYSIS_VERSION, analyze, analyzeQuery, detectLanguage } from './analysis/index.ts';
export type { SegmentReader, PostingsIterator } from './segment/types.ts';
export { hammingDistance, simhash } from './duplicates/simhash.ts';
export { startModuleWorker } from './util/worker-start.ts';
export { SEA_MERGE_WORKER_ASSET } from './merge/merge-thread.ts';
export { BoundedMap } from './util/bounded-map.ts';
export { SegmentCache } from './util/segment-cache.ts';

export interface OpenIndexOptions {
  directory: Directory;
  schema: IndexSchema;
  /** Periodic commit interval in ms; 0 (default) = only on demand. */
  commitIntervalMs?: number;
  bm25?: Partial<Bm25Params>;
  log?: (event: EngineEvent) => void;
  /** RAM buffer size that triggers a segment flush (default 32 MiB). */
  ramBufferBytes?: number;
  /** Buffered tokens that trigger a segment flush (default 1 M; about 20 bytes each at flush time). */
  maxBufferedTokens?: number;
  /** Merge policy knobs (see merge/tiered-policy.ts); `false` disables background merges. */
  merge?: Partial<MergePolicyOptions> | false;
  /**
   * Idle compaction (see merge/idle-compaction.ts): after `idleMs` without adds or deletes,
   * merge further, down to `maxSegments` (default 1). Off unless `idleMs` > 0 (and merges are on).
   */
  compaction?: Partial<CompactionOptions>;
}

export interface Index {
  writer: IndexWriter;
  reader: IndexReader;
  /** Resolves when no background merge is running or due (tests, benchmarks, tools). */
  waitForMerges(): Promise<void>;
  /**
   * Commits, then merges segments until at most `maxSegments` remain (default 1), committing
   * each merge; for after bulk loads. No-op when merges are disabled.
   */
  forceMerge(maxSegments?: number): Promise<void>;
  /**
   * Re-adds every live document of the last commit from what the index stores (text, columns,
   * stored fields), so all segments carry the current analysis and format; commits at the end.
   * Nothing else may write meanwhile. See indexer/rebuild.ts.
   */
  rebuild(onProgress?: (p: RebuildProgress) => void): Promise<RebuildProgress>;
  /** Waits for background work, commits outstanding changes, releases the index. */
  close(): Promise<void>;
}

export async function openIndex(options: OpenIndexOptions): Promise<Index> {
  const { directory, schema } = options;
  if (!schema || typeof schema !== 'object' || typeof schema.textFields !== 'object') {
    throw new EngineError('INVALID_DOCUMENT', 'openIndex: schema.textFields is required');
  }
  validateDisplayFields(schema.displayFields);
  const interval = options.commitIntervalMs ?? 0;
  if (!Number.isFinite(interval) || interval < 0)
    throw new EngineError('INVALID_DOCUMENT', 'commitIntervalMs must be >= 0');
  const started = Date.now();
  const lock = await directory.lock();
  let opened;
  try {
    opened = await openCommit(directory);
  } catch (err) {
    await lock.release();
    throw err;
  }
  const writer = new IndexWriter(directory, opened, {
    log: options.log,
    ramBufferBytes: options.ramBufferBytes,
    maxBufferedTokens: options.maxBufferedTokens,
    displayFields: schema.displayFields,
  });
  const reader = new IndexReader(writer, { schema, bm25: options.bm25 });
  options.log?.({
    type: 'open',
    generation: opened.point.generation,
    docCount: opened.point.docCount,
    segments: opened.point.segments.length,
    ms: Date.now() - started,
    removedFiles: opened.removedFiles,
    staleAnalysisDocs: writer.staleAnalysisDocs,
  });
  const merges =
    options.merge === false
      ? null
      : new MergeScheduler(directory, writer, options.merge ?? {}, options.log, options.compaction, {
          displayFields: schema.displayFields,
        });
  let timer: ReturnType<typeof setInterval> | null = null;
  if (interval > 0) {
    timer = setInterval(() => {
      if (writer.hasChanges && !writer.isClosed) {
        writer
          .commit()
          .catch((err) =>
            options.log?.({ type: 'error', where: 'periodic commit', message: String(err?.message ?? err) }),
          );
      }
    }, interval);
    timer.unref();
  }
  let closing: Promise<void> | null = null;
  return {
    writer,
    reader,
    async waitForMerges() {
      await merges?.idle();
    },
    async forceMerge(maxSegments = 1) {
      if (writer.hasChanges) await writer.commit();
      await merges?.forceMerge(maxSegments);
    },
    async rebuild(onProgress) {
      if (writer.hasChanges) await writer.commit();
      const result = await rebuildFromStored(writer, schema, onProgress);
      await merges?.idle();
      return result;
    },
    close() {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        await merges?.close();
        try {
          await writer.close();
        } finally {
          reader.close();
          await lock.release();
        }
      })();
      return closing;
    },
  };
}
