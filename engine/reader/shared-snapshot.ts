/**
 * Snapshots across threads: searching an index on a thread that does not own it.
 *
 * The owning thread's `IndexReader.share()` describes its current snapshot as a
 * SharedSnapshot, a structured-cloneable object: the commit info and, per segment,
 * the file image and the snapshot's deletion bitset. Segment images are in shared
 * memory (directory/shared-bytes.ts), so posting a SharedSnapshot to a worker shares
 * them instead of copying; only the deletion bitsets (one bit per doc) are copied.
 *
 * A SnapshotReader on the other thread turns the snapshots it is given into
 * searchers. It keeps a segment's decoded state (its SegmentCore with the term,
 * norm and column readers built on use) while later snapshots still list the
 * segment, and drops it once one does not. Searchers are fixed snapshots, as on
 * the owning thread: results equal those of the owner's searcher of the same
 * generation. The images stay valid after the owner deletes the segment's file.
 */
import type { CommitInfo } from '../document.ts';
import { EngineError } from '../errors.ts';
import { FilterCache } from '../query/filter.ts';
import { SegmentCore, SegmentView } from '../segment/segment-reader.ts';
import { droppedShared, toShared } from '../directory/shared-bytes.ts';
import { Searcher, type SearcherOptions } from '../search/searcher.ts';

export interface SharedSegment {
  /** The segment's file name (its identity; a file is written once). */
  fileName: string;
  /** The whole segment file image, in shared memory. */
  bytes: Uint8Array;
  /** Deleted docs of the snapshot (bit per doc), null when none. */
  deletions: Uint8Array | null;
  delCount: number;
}

export interface SharedSnapshot {
  info: CommitInfo;
  segments: SharedSegment[];
}

/** Shared copies of images that were not in shared memory (made once per core). */
const sharedImages = new WeakMap<SegmentCore, Uint8Array>();

/** The description of a snapshot's segment views (IndexReader.share). */
export function shareViews(
  info: CommitInfo,
  views: readonly SegmentView[],
  fileName: (id: string) => string,
): SharedSnapshot {
  return {
    info,
    segments: views.map((v) => {
      const bytes = sharedImages.get(v.core) ?? toShared(v.core.bytes);
      if (bytes !== v.core.bytes) sharedImages.set(v.core, bytes);
      return { fileName: fileName(v.id), bytes, deletions: v.deletions, delCount: v.maxDoc - v.numDocs };
    }),
  };
}

export type SnapshotReaderOptions = Omit<SearcherOptions, 'generation'>;

export class SnapshotReader {
  private cores = new Map<string, SegmentCore>();
  private views: SegmentView[] = [];
  private info: CommitInfo | null = null;
  private readonly options: SnapshotReaderOptions;

  constructor(options: SnapshotReaderOptions) {
    this.options = { filterCache: new FilterCache(), ...options };
  }

  /** Generation of the loaded snapshot; -1 before the first `load`. */
  get generation(): number {
    return this.info?.generation ?? -1;
  }

  /** Replaces the current snapshot; cores of segments it no longer lists are dropped. */
  load(snapshot: SharedSnapshot): void {
    const cores = new Map<string, SegmentCore>();
    const views = snapshot.segments.map((s) => {
      let core = this.cores.get(s.fileName) ?? cores.get(s.fileName);
      if (!core) core = new SegmentCore(s.bytes, s.fileName);
      cores.set(s.fileName, core);
      return new SegmentView(core, s.deletions, s.delCount);
    });
    for (const [name, core] of this.cores) if (!cores.has(name)) droppedShared(core.sizeBytes);
    this.cores = cores;
    this.views = views;
    this.info = snapshot.info;
  }

  /** A searcher over the loaded snapshot (cheap; one per request or per batch of them). */
  searcher(): Searcher {
    if (!this.info) throw new EngineError('CLOSED', 'snapshot reader has no snapshot loaded');
    return new Searcher(this.views, { ...this.options, generation: this.info.generation });
  }
}
