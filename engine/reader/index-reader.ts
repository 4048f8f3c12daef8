/**
 * IndexReader: holds the snapshot of the last commit and hands out searchers over it.
 * A snapshot is a fixed list of SegmentViews (segment core + frozen deletion bitset);
 * it reloads when the writer commits. Snapshots are reference-counted: the reader holds the
 * current one, every searcher holds its own; a segment core's file may be deleted (after a
 * merge) only when no live snapshot uses it. Searchers release on `release(searcher)` or,
 * as a fallback, when garbage-collected. `share()` describes the current snapshot for a
 * SnapshotReader on another thread (shared-snapshot.ts).
 */
import type { CommitInfo } from '../document.ts';
import type { CommitSnapshot, IndexWriter } from '../indexer/index-writer.ts';
import type { SegmentView } from '../segment/segment-reader.ts';
import { Searcher, type SearcherOptions } from '../search/searcher.ts';
import { FilterCache } from '../query/filter.ts';
import { EngineError } from '../errors.ts';
import { droppedShared } from '../directory/shared-bytes.ts';
import { segmentFileName } from '../segment/segment-writer.ts';
import { shareViews, type SharedSnapshot } from './shared-snapshot.ts';

export class Snapshot {
  private refs = 0;

  constructor(
    readonly info: CommitInfo,
    readonly views: SegmentView[],
    private readonly onFree: (s: Snapshot) => void,
  ) {}

  get generation(): number {
    return this.info.generation;
  }

  acquire(): void {
    if (this.refs === 0) for (const v of this.views) v.core.refCount++;
    this.refs++;
  }

  release(): void {
    if (this.refs <= 0) return;
    if (--this.refs === 0) {
      for (const v of this.views) if (--v.core.refCount === 0) droppedShared(v.core.sizeBytes);
      this.onFree(this);
    }
  }

  get inUse(): boolean {
    return this.refs > 0;
  }
}

export type ReaderSearcherOptions = Omit<SearcherOptions, 'generation'>;

export class IndexReader {
  private current: Snapshot;
  private readonly live = new Set<Snapshot>();
  private readonly listeners = new Set<(info: CommitInfo) => void>();
  private readonly bySearcher = new WeakMap<object, Snapshot>();
  private readonly registry = new FinalizationRegistry<Snapshot>((s) => s.release());
  private readonly searcherOptions: ReaderSearcherOptions;
  private closed = false;
  private readonly shared = new WeakMap<Snapshot, SharedSnapshot>();
  private readonly unsubscribe: () => void;

  constructor(writer: IndexWriter, options: ReaderSearcherOptions) {
    this.searcherOptions = { filterCache: new FilterCache(), ...options };
    this.current = this.adopt(writer.committedSnapshot());
    this.unsubscribe = writer.onCommit((s) => this.reload(s));
    writer.inUseIds = () => this.inUseIds();
  }

  get generation(): number {
    return this.current.generation;
  }

  /** The current snapshot's info (generation, committedAt, docCount). */
  get info(): CommitInfo {
    return this.current.info;
  }

  /** Commit user data of the current snapshot (see IndexWriter.setCommitData). */
  get commitData(): Record<string, string | number> {
    return this.current.info.userData ?? {};
  }

  /** A searcher over the last commit (cheap; one per request). */
  searcher(): Searcher {
    if (this.closed) throw new EngineError('CLOSED', 'index reader is closed');
    const snap = this.current;
    snap.acquire();
    const s = new Searcher(snap.views, { ...this.searcherOptions, generation: snap.generation });
    this.bySearcher.set(s, snap);
    this.registry.register(s, snap, s);
    return s;
  }

  /** Releases a searcher early (its segments' files may then be cleaned up). Idempotent. */
  release(searcher: Searcher): void {
    const snap = this.bySearcher.get(searcher);
    if (!snap) return;
    this.bySearcher.delete(searcher);
    this.registry.unregister(searcher);
    snap.release();
  }

  /**
   * The current snapshot as a structured-cloneable description for a SnapshotReader on
   * another thread (shared-snapshot.ts); the same object until the next commit.
   */
  share(): SharedSnapshot {
    if (this.closed) throw new EngineError('CLOSED', 'index reader is closed');
    const snap = this.current;
    let s = this.shared.get(snap);
    if (!s) this.shared.set(snap, (s = shareViews(snap.info, snap.views, segmentFileName)));
    return s;
  }

  /** Size of the current snapshot: segments, live and deleted docs, and the segments' bytes. */
  stats(): { segments: number; docs: number; deletedDocs: number; bytes: number } {
    let docs = 0;
    let maxDocs = 0;
    let bytes = 0;
    for (const v of this.current.views) {
      docs += v.numDocs;
      maxDocs += v.maxDoc;
      bytes += v.core.sizeBytes;
    }
    return { segments: this.current.views.length, docs, deletedDocs: maxDocs - docs, bytes };
  }

  /** The raw segment views of the current snapshot (tests, tools). */
  segments(): readonly SegmentView[] {
    return this.current.views;
  }

  onCommit(listener: (info: CommitInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Segment ids used by any live snapshot. */
  inUseIds(): Set<string> {
    const ids = new Set<string>();
    for (const s of this.live) for (const v of s.views) ids.add(v.id);
    return ids;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.current.release();
  }

  private adopt(s: CommitSnapshot): Snapshot {
    const snap = new Snapshot(s.info, s.views, (x) => this.live.delete(x));
    snap.acquire();
    this.live.add(snap);
    return snap;
  }

  private reload(s: CommitSnapshot): void {
    if (this.closed) return;
    const old = this.current;
    this.current = this.adopt(s);
    old.release();
    for (const l of this.listeners) {
      try {
        l(s.info);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}
