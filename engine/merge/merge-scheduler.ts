/**
 * Merge scheduler: after every flush and commit, asks the tiered policy for a merge among
 * the writer's segments and runs at most one merge at a time in the background (the merger
 * yields to the event loop). When the merged segment is written and fsynced, it replaces its
 * sources in one synchronous step: deletions made to the sources while the merge ran are
 * carried over through the doc maps. Then a commit makes the new segment list durable with
 * the usual protocol; the sources' files go once no commit or searcher references them.
 * The merge itself runs on a worker thread (merge-thread.ts), or here when no thread can be used.
 * With idle compaction on (idle-compaction.ts), a writer that saw no add or delete for `idleMs`
 * gets further merges, one at a time, until the compaction policy finds none; any write stops
 * the sequence before its next merge (the running one completes like any background merge).
 * When nothing is left to compact, a segment without the schema's display store (display
 * fields) is rewritten alone, once, smallest first (see displayUpgrade).
 */
import type { Directory } from '../directory/types.ts';
import type { EngineEvent } from '../document.ts';
import type { IndexWriter, LiveSegment } from '../indexer/index-writer.ts';
import { SegmentCore, isDeletedIn } from '../segment/segment-reader.ts';
import { concatChunks, segmentFileName } from '../segment/segment-writer.ts';
import { DEFAULT_MERGE_POLICY, findMerge, type MergePolicyOptions } from './tiered-policy.ts';
import { mergeSegments, type MergeOptions, type MergeSource } from './merger.ts';
import { MergeThread } from './merge-thread.ts';
import { DEFAULT_COMPACTION, findIdleMerge, type CompactionOptions } from './idle-compaction.ts';

export type { MergePolicyOptions } from './tiered-policy.ts';
export type { CompactionOptions } from './idle-compaction.ts';

export class MergeScheduler {
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly policy: MergePolicyOptions;
  private readonly thread = new MergeThread();
  private readonly compaction: CompactionOptions;
  private idleTimer: ReturnType<typeof setInterval> | null = null;
  /** Writer's writeCount when last seen, and since when (ms) it has not moved. */
  private seenWrites = -1;
  private quietSince = 0;
  /** The current quiet period's compaction: started (ms), merges done; null when none ran. */
  private compacting: { started: number; merges: number } | null = null;
  /** The current quiet period's `compacted` event was logged. */
  private settled = false;

  constructor(
    private readonly dir: Directory,
    private readonly writer: IndexWriter,
    policy: Partial<MergePolicyOptions>,
    private readonly log?: (event: EngineEvent) => void,
    compaction: Partial<CompactionOptions> = {},
    /** How merged segments are written (their display fields). */
    private readonly segmentOptions: MergeOptions = {},
  ) {
    this.policy = { ...DEFAULT_MERGE_POLICY, ...policy };
    this.compaction = { ...DEFAULT_COMPACTION, ...compaction };
    writer.onSegmentsChanged = () => this.maybeMerge();
    const idleMs = this.compaction.idleMs;
    if (idleMs > 0) {
      this.idleTimer = setInterval(() => this.maybeCompact(), Math.min(5000, Math.max(20, idleMs / 4)));
      this.idleTimer.unref();
    }
  }

  /**
   * Starts the next idle-compaction merge when the writer has been quiet for `idleMs`
   * (no add or delete, nothing uncommitted) and no merge is running.
   */
  maybeCompact(): void {
    if (this.running || this.closed || this.writer.isClosed) return;
    const now = Date.now();
    const writes = this.writer.writeCount;
    if (writes !== this.seenWrites || this.writer.hasChanges) {
      this.seenWrites = writes;
      this.quietSince = now;
      this.compacting = null;
      this.settled = false;
      return;
    }
    if (now - this.quietSince < this.compaction.idleMs) return;
    const plan = this.compactionPlan(
      this.compaction.maxSegments,
      this.compaction.minRatio,
      this.policy.maxMergedSegmentBytes,
    );
    const { candidates } = plan;
    const ids = plan.ids ?? this.displayUpgrade(candidates);
    if (!ids) {
      if (!this.settled) {
        this.settled = true;
        const c = this.compacting;
        this.log?.({
          type: 'compacted',
          segments: this.writer.segments.length,
          merges: c?.merges ?? 0,
          ms: c ? now - c.started : 0,
        });
      }
      this.compacting = null;
      return;
    }
    this.compacting ??= { started: now, merges: 0 };
    const state = this.compacting;
    this.running = this.run(
      candidates.filter((s) => ids.includes(s.core.id)),
      true,
    )
      .then(() => {
        state.merges++;
      })
      .catch((err) => {
        if (!this.closed)
          this.log?.({ type: 'error', where: 'merge', message: String((err as Error)?.message ?? err) });
        this.quietSince = Date.now(); // try again after another quiet period, not at once
      })
      .finally(() => {
        this.running = null;
        // The merge's own commit is no write: without adds or deletes meanwhile, the quiet
        // period goes on (writeCount still equals seenWrites); with them it starts over.
        setImmediate(() => {
          this.maybeMerge();
          this.maybeCompact();
        });
      });
  }

  /** Starts a merge when the policy finds one and none is running. */
  maybeMerge(): void {
    if (this.running || this.closed || this.writer.isClosed) return;
    const candidates = this.writer.segments.filter((s) => !s.merging);
    const ids = findMerge(
      candidates.map((s) => ({
        id: s.core.id,
        sizeBytes: s.core.sizeBytes,
        maxDoc: s.core.maxDoc,
        delCount: s.delCount,
      })),
      this.policy,
    );
    if (!ids) return;
    const chosen = candidates.filter((s) => ids.includes(s.core.id));
    const run = this.run(chosen)
      .catch((err) => {
        if (!this.closed)
          this.log?.({ type: 'error', where: 'merge', message: String((err as Error)?.message ?? err) });
      })
      .finally(() => {
        this.running = null;
        setImmediate(() => this.maybeMerge());
      });
    this.running = run;
  }

  /** Waits until no merge is running (tests, benchmarks). */
  async idle(): Promise<void> {
    for (;;) {
      while (this.running) await this.running;
      await new Promise<void>((r) => setImmediate(r));
      this.maybeMerge();
      if (!this.running) return;
    }
  }

  /**
   * Merges until at most `maxSegments` segments remain (smallest first, at most
   * `maxMergeAtOnce` per merge), each merge committed; then resolves.
   */
  async forceMerge(maxSegments: number): Promise<void> {
    const max = Math.max(1, Math.floor(maxSegments));
    for (;;) {
      await this.idle();
      if (this.closed || this.writer.isClosed) return;
      const { candidates, ids } = this.compactionPlan(max, 0, Infinity);
      if (!ids) return;
      const run = this.run(candidates.filter((s) => ids.includes(s.core.id))).finally(() => {
        this.running = null;
      });
      this.running = run;
      await run;
    }
  }

  /** The segments not merging and the next compaction merge among them (idle-compaction.ts), or null. */
  private compactionPlan(
    maxSegments: number,
    minRatio: number,
    maxMergedSegmentBytes: number,
  ): { candidates: LiveSegment[]; ids: string[] | null } {
    const candidates = this.writer.segments.filter((s) => !s.merging);
    const ids = findIdleMerge(
      candidates.map((s) => ({
        id: s.core.id,
        sizeBytes: s.core.sizeBytes,
        maxDoc: s.core.maxDoc,
        delCount: s.delCount,
      })),
      { maxSegments, minRatio, maxMergeAtOnce: this.policy.maxMergeAtOnce, maxMergedSegmentBytes },
    );
    return { candidates, ids };
  }

  /**
   * A segment written without the schema's display store (by a flush, or by an older
   * version), smallest first, to be rewritten alone: once per segment, when there is nothing
   * to compact, so that an index nobody writes to ends up reading display fields uncompressed.
   */
  private displayUpgrade(candidates: readonly LiveSegment[]): string[] | null {
    const want = this.segmentOptions.displayFields ?? [];
    if (want.length === 0) return null;
    const key = want.join('\u0001');
    let pick: LiveSegment | null = null;
    for (const s of candidates) {
      if (
        s.core.maxDoc === 0 ||
        s.delCount >= s.core.maxDoc ||
        (s.core.meta.displayFields ?? []).join('\u0001') === key
      )
        continue;
      if (pick === null || s.core.sizeBytes < pick.core.sizeBytes) pick = s;
    }
    return pick ? [pick.core.id] : null;
  }

  /** Stops scheduling and aborts the running merge. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearInterval(this.idleTimer);
    await this.thread.close();
    if (this.running) await this.running;
  }

  /** The merged segment's file image and doc maps: from the merge thread, else merged here. */
  private async merge(
    id: string,
    sources: MergeSource[],
    stop: () => boolean,
  ): Promise<{ bytes: Uint8Array; docMaps: Int32Array[]; thread: boolean }> {
    const offThread = this.thread.merge(id, sources, this.segmentOptions);
    if (offThread) {
      try {
        return { ...(await offThread), thread: true };
      } catch (err) {
        if (stop()) throw err;
        // the thread crashed (it is not used again) or the merge failed there: merge here,
        // where a real error in the sources repeats and is reported
      }
    }
    const { segment, docMaps } = await mergeSegments(id, sources, stop, this.segmentOptions);
    return { bytes: concatChunks(segment.chunks, segment.size), docMaps, thread: false };
  }

  private async run(sources: LiveSegment[], idle = false): Promise<void> {
    const started = Date.now();
    const writer = this.writer;
    for (const s of sources) s.merging = true;
    const id = writer.newSegmentId();
    writer.writingIds.add(id);
    const name = segmentFileName(id);
    let written = false;
    try {
      const frozen = sources.map((s) => ({ core: s.core, bits: s.bits.slice() }));
      const stop = () => this.closed || writer.isClosed;
      const { bytes, docMaps, thread } = await this.merge(id, frozen, stop);
      await this.dir.writeFile(name, [bytes]);
      written = true;
      if (stop()) return;
      const core = new SegmentCore(bytes, name);
      // synchronous swap
      if (!sources.every((s) => writer.segments.includes(s))) return;
      const bits = new Uint8Array((core.maxDoc + 7) >>> 3);
      let delCount = 0;
      sources.forEach((s, i) => {
        const map = docMaps[i];
        const before = frozen[i].bits;
        for (let d = 0; d < s.core.maxDoc; d++) {
          const nd = map[d];
          if (nd >= 0 && isDeletedIn(s.bits, d) && !isDeletedIn(before, d)) {
            bits[nd >>> 3] |= 1 << (nd & 7);
            delCount++;
          }
        }
      });
      const merged: LiveSegment = {
        core,
        bits,
        delCount,
        committedDelGen: 0,
        committedDelCount: 0,
        merging: false,
        analysis: Math.min(...sources.map((x) => x.analysis)),
      };
      const at = writer.segments.indexOf(sources[0]);
      for (const s of sources) writer.segments.splice(writer.segments.indexOf(s), 1);
      if (core.maxDoc > 0) writer.segments.splice(Math.min(at, writer.segments.length), 0, merged);
      writer.markChanged();
      written = false;
      this.log?.({
        type: 'merge',
        from: sources.map((s) => s.core.id),
        to: id,
        docs: core.maxDoc,
        bytes: bytes.length,
        ms: Date.now() - started,
        thread,
        ...(idle ? { idle } : {}),
      });
      await writer.commit();
    } finally {
      for (const s of sources) s.merging = false;
      writer.writingIds.delete(id);
      if (written) await this.dir.deleteFile(name).catch(() => undefined);
    }
  }
}
