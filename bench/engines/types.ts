/**
 * One interface in front of the three engines the benchmark compares: this
 * engine, MiniSearch 7 and SQLite FTS5. Every adapter indexes a title and a
 * body field plus optional keyword columns, ranks by BM25 (MiniSearch: BM25+),
 * and returns external doc ids best first.
 */
import type { BenchDoc } from '../corpora/types.ts';

export type EngineName = 'ours' | 'minisearch' | 'sqlite';
export const ENGINE_NAMES: EngineName[] = ['ours', 'minisearch', 'sqlite'];

/** A document matches when its keyword column `field` carries any of `anyOf`. */
export interface KeywordFilter {
  field: string;
  anyOf: string[];
}

export interface EngineOptions {
  /**
   * Folder for an on-disk index (ours: FsDirectory; SQLite: a file DB inside
   * it; MiniSearch: its JSON serialisation written at commit). Absent means in
   * memory. When the folder already holds a committed index, it is opened.
   */
  dir?: string;
  /** Keyword columns the documents carry (default none). */
  keywordFields?: string[];
  /** Title boost for our engine's schema (default 2; peers use their defaults). */
  titleBoost?: number;
  /** Ours: background segment merges (default true; peers have none to turn off). */
  backgroundMerges?: boolean;
}

export interface EngineAdapter {
  readonly name: EngineName;
  /** Buffers or inserts one document; visible after commit. */
  add(doc: BenchDoc): void;
  /** Makes everything added so far searchable (and durable for on-disk engines). */
  commit(): Promise<void>;
  /** Waits for background work started by commits (ours: segment merges), so timed queries run on a settled index. */
  settle(): Promise<void>;
  /**
   * Merges the index as far as the engine goes for a read-mostly index: ours merges to one segment
   * (what the service's idle compaction does), SQLite FTS5 runs its 'optimize' command, MiniSearch has nothing to do.
   */
  compact(): Promise<void>;
  /** Top-k external ids for a free-text query (OR of its words), optionally filtered. */
  search(query: string, k: number, filter?: KeywordFilter): string[];
  /** Bytes the index takes on disk, null for in-memory engines. */
  sizeOnDiskBytes(): number | null;
  close(): Promise<void>;
}
