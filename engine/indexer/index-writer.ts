/**
 * IndexWriter: buffers added documents in RAM, flushes them as immutable segments, applies
 * deletions to per-segment bitsets, and commits crash-safely:
 *   1. segment files (written and fsynced when flushed), 2. new deletion files (write-once, one
 *   generation per commit), 3. fsync of the directory, 4. a framed commit record appended to the
 *   commit log and fsynced (plus a directory fsync when the log file is new).
 * A commit is a point-in-time: the segment list and every deletion bitset are captured
 * synchronously when commit() is called. Concurrent commit() calls coalesce (at most one runs,
 * at most one more waits and then covers all later calls). Deletes apply eagerly: an add or
 * delete marks the older copies of a key deleted in every segment and buffer at once, so each
 * key has at most one live doc. Merges run in the background (merge/) and are committed too.
 */
import type { Directory } from '../directory/types.ts';
import { EngineError } from '../errors.ts';
import { ANALYSIS_VERSION, detectLanguage } from '../analysis/index.ts';
import { analyzeTerms, TermStream } from '../analysis/analyzer.ts';
import { validateDocument, type CommitInfo, type EngineEvent, type IndexDocument } from '../document.ts';
import { SegmentBuffer, type FlushedSegment } from './segment-buffer.ts';
import { releasePooledLogs } from './buffer-pools.ts';
import { SegmentCore, SegmentView } from '../segment/segment-reader.ts';
import { concatChunks, segmentFileName } from '../segment/segment-writer.ts';
import { hashKey } from '../columns/keys.ts';
import { encodeRecord, logFileName, type CommitPoint, type SegmentEntry } from '../commit/commit-log.ts';
import { deletionFileName, encodeDeletions } from '../commit/deletions.ts';
import { referencedFiles, type OpenedCommit } from '../commit/commit-open.ts';
import { CommitLogWriter, removeUnusedFiles } from '../commit/commit-writer.ts';

/** A segment the writer maintains (flushed or merged, committed or not). */
export interface LiveSegment {
  core: SegmentCore;
  /** Mutable deletion bitset (bit set = deleted). */
  bits: Uint8Array;
  delCount: number;
  /** Last committed deletion generation / count of this segment. */
  committedDelGen: number;
  committedDelCount: number;
  merging: boolean;
  /** Analysis version of its terms (a merged segment keeps the oldest of its sources). */
  analysis: number;
}

interface Pending {
  id: string;
  buffer: SegmentBuffer;
  /** The segment's file image. */
  flushed: Promise<Uint8Array>;
  written: Promise<LiveSegment> | null;
  failed: boolean;
}

export interface WriterOptions {
  /** Flush the RAM buffer when its estimated size passes this many bytes (default 32 MiB). */
  ramBufferBytes?: number;
  /** ...or when it holds this many tokens (default 1 M; about 20 bytes each while flushing). */
  maxBufferedTokens?: number;
  log?: (event: EngineEvent) => void;
  /** Stored fields flushed segments also keep in their display store (schema.displayFields). */
  displayFields?: readonly string[];
}

/** Published to the reader after every commit. */
export interface CommitSnapshot {
  info: CommitInfo;
  views: SegmentView[];
}

/** The files of a pinned commit point (see IndexWriter.pinCommit). */
export interface CommitSnapshotFiles {
  generation: number;
  docCount: number;
  /** Caller data recorded with the commit (e.g. the last applied queue sequence number). */
  userData: Record<string, string | number>;
  /** Write-once files the commit references, relative to the index directory. */
  files: string[];
  /** The one commit log file of a copy of this commit. */
  commitLog: { name: string; bytes: Uint8Array };
  release(): void;
}

export class IndexWriter {
  private buffer: SegmentBuffer;
  private readonly pendings: Pending[] = [];
  readonly segments: LiveSegment[] = [];
  private point: CommitPoint;
  private commitData: Record<string, string | number>;
  private readonly commitLog: CommitLogWriter;
  private committing: Promise<CommitInfo> | null = null;
  private queued: Promise<CommitInfo> | null = null;
  private changed = false;
  private lastAttempt = 0;
  private closed = false;
  private readonly ramBufferBytes: number;
  private readonly maxBufferedTokens: number;
  private readonly listeners = new Set<(s: CommitSnapshot) => void>();
  /**
   * Key -> sequence number of its live buffered copy (in the current or a pending buffer: doc
   * seq - buffer.firstSeq), one lookup to replace or delete a key however many buffers are
   * pending. Holds exactly the live buffered docs: deleting a buffered doc removes its entry,
   * and a pending buffer's remaining entries go when its segment is written.
   */
  private readonly keyDocs = new Map<string, number>();
  /** Flushes waiting for their stored blocks, completed by adds once these are compressed (seal). */
  private readonly polls = new Set<() => boolean>();
  /** Reusable analysis output per text field (consumed synchronously by the buffer). */
  private readonly streams = new Map<string, TermStream>();
  /** Segment ids whose files are being written (protected from file cleanup). */
  readonly writingIds = new Set<string>();
  /** Adds and deletes so far (the merge scheduler tells a quiet writer by it). */
  writeCount = 0;
  /** Called after each flush and commit so the merge scheduler can look for work. */
  onSegmentsChanged: (() => void) | null = null;
  /** Extra protection for file cleanup (segment ids used by live searchers). */
  inUseIds: () => Iterable<string> = () => [];
  /** Commit points pinned by snapshots: their files stay until released. */
  private readonly pinned = new Set<CommitPoint>();

  constructor(
    private readonly dir: Directory,
    opened: OpenedCommit,
    private readonly options: WriterOptions = {},
  ) {
    this.point = opened.point;
    this.commitData = { ...(opened.point.userData ?? {}) };
    this.commitLog = new CommitLogWriter(dir, opened.log);
    this.ramBufferBytes = options.ramBufferBytes ?? 32 * 1024 * 1024;
    this.maxBufferedTokens = options.maxBufferedTokens ?? 1_000_000;
    this.buffer = new SegmentBuffer({ displayFields: this.options.displayFields });
    opened.point.segments.forEach((entry, i) => {
      const s = opened.segments[i];
      this.segments.push({
        core: s.core,
        bits: s.bits,
        delCount: s.delCount,
        committedDelGen: entry.delGen,
        committedDelCount: s.delCount,
        merging: false,
        analysis: entry.analysis ?? 1,
      });
    });
  }

  /** Docs added since the last commit started (buffered or being flushed). */
  get pendingDocs(): number {
    let n = this.buffer.numDocs;
    for (const p of this.pendings) n += p.buffer.numDocs;
    return n;
  }

  get generation(): number {
    return this.point.generation;
  }

  /** Views of the last commit (for the reader's first snapshot). */
  committedSnapshot(): CommitSnapshot {
    const byId = new Map(this.segments.map((s) => [s.core.id, s]));
    const views = this.point.segments.map((e) => {
      const s = byId.get(e.id)!;
      return new SegmentView(s.core, s.bits.slice(), s.delCount);
    });
    return { info: this.info(this.point), views };
  }

  onCommit(listener: (s: CommitSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(input: IndexDocument): void {
    this.checkOpen();
    this.writeCount++;
    const doc = validateDocument(input);
    const language = doc.language ?? detectLanguage(sampleText(doc.text));
    const terms: Record<string, TermStream> = {};
    for (const f in doc.text) {
      let stream = this.streams.get(f);
      if (!stream) this.streams.set(f, (stream = new TermStream()));
      analyzeTerms(doc.text[f], language, stream);
      terms[f] = stream;
    }
    this.deleteKey(doc.key);
    this.keyDocs.set(doc.key, this.buffer.firstSeq + this.buffer.numDocs);
    this.buffer.add({
      key: doc.key,
      language,
      text: doc.text,
      terms,
      keywords: doc.keywords ?? {},
      numbers: doc.numbers ?? {},
      stored: doc.stored ?? {},
    });
    this.changed = true;
    if (this.buffer.bytesUsed >= this.ramBufferBytes || this.buffer.tokenCount >= this.maxBufferedTokens) this.seal();
    if (this.polls.size > 0) this.pollFlushes();
  }

  delete(key: string): void {
    this.checkOpen();
    if (typeof key !== 'string' || key.length === 0)
      throw new EngineError('INVALID_DOCUMENT', 'key must be a non-empty string');
    this.writeCount++;
    this.deleteKey(key);
  }

  deleteByKeyword(field: string, value: string): void {
    this.checkOpen();
    if (typeof field !== 'string' || typeof value !== 'string')
      throw new EngineError('INVALID_DOCUMENT', 'field and value must be strings');
    this.writeCount++;
    for (const b of this.buffers()) {
      for (const d of b.docsWithKeyword(field, value)) {
        if (!b.deleteDoc(d)) continue;
        this.changed = true;
        this.keyDocs.delete(b.keys[d]); // it was the key's live copy
      }
    }
    for (const s of this.segments) {
      const docs = s.core.keywordColumn(field)?.docsOf(value);
      if (docs) for (let i = 0; i < docs.length; i++) this.deleteSegmentDoc(s, docs[i]);
    }
  }

  private deleteKey(key: string): void {
    const seq = this.keyDocs.get(key);
    if (seq !== undefined) {
      this.keyDocs.delete(key);
      const b = this.bufferOf(seq);
      if (b !== null && b.deleteDoc(seq - b.firstSeq)) this.changed = true;
    }
    if (this.segments.length === 0) return;
    const hash = hashKey(key);
    for (const s of this.segments) for (const sd of s.core.keys().find(key, hash)) this.deleteSegmentDoc(s, sd);
  }

  /** The buffer (current or pending) holding buffered doc `seq`, or null. */
  private bufferOf(seq: number): SegmentBuffer | null {
    if (seq >= this.buffer.firstSeq) return this.buffer;
    for (const p of this.pendings) {
      const b = p.buffer;
      if (seq >= b.firstSeq && seq < b.firstSeq + b.numDocs) return b;
    }
    return null;
  }

  /** Marks doc `d` of segment `s` deleted. */
  deleteSegmentDoc(s: LiveSegment, d: number): void {
    const bit = 1 << (d & 7);
    if (s.bits[d >>> 3] & bit) return;
    s.bits[d >>> 3] |= bit;
    s.delCount++;
    this.changed = true;
  }

  private *buffers(): Generator<SegmentBuffer> {
    yield this.buffer;
    for (const p of this.pendings) yield p.buffer;
  }

  /** Allocates a new segment id (never reused). */
  newSegmentId(): string {
    const n = this.point.nextSegment++;
    return `s${n.toString(36).padStart(6, '0')}`;
  }

  /**
   * Starts flushing the RAM buffer into a new segment. Its image is made as soon as the stored
   * blocks are compressed: on the event loop, or on one of the next adds (pollFlushes), so that a
   * caller adding in a synchronous loop does not pile up the sections of every buffer it fills
   * until the loop ends.
   */
  private seal(): void {
    if (this.buffer.numDocs === 0) return;
    const buffer = this.buffer;
    this.buffer = new SegmentBuffer({
      displayFields: this.options.displayFields,
      firstSeq: buffer.firstSeq + buffer.numDocs,
    });
    const id = this.newSegmentId();
    this.writingIds.add(id);
    const started = Date.now();
    let flushed: Promise<Uint8Array>;
    try {
      const task = buffer.flush(id);
      let image: Uint8Array | null = null;
      let settle: (b: Uint8Array) => void = () => undefined;
      const poll = (): boolean => {
        if (image === null) {
          const seg = task.poll();
          if (seg === null) return false;
          image = imageOf(seg);
          settle(image);
        }
        return true;
      };
      flushed = new Promise<Uint8Array>((resolve, reject) => {
        settle = resolve;
        task.done.then(
          (seg) => {
            this.polls.delete(poll);
            resolve((image ??= imageOf(seg)));
          },
          (err) => {
            this.polls.delete(poll);
            reject(err);
          },
        );
      });
      if (!poll()) this.polls.add(poll);
    } catch (err) {
      flushed = Promise.reject(err);
    }
    flushed.catch(() => undefined);
    const pending: Pending = { id, buffer, flushed, written: null, failed: false };
    this.pendings.push(pending);
    this.startWrite(pending, started);
  }

  /** Completes the flushes whose stored blocks are compressed by now (see seal). */
  private pollFlushes(): void {
    for (const poll of this.polls) {
      let done = true;
      try {
        done = poll();
      } catch {
        // the flush's promise reports the error
      }
      if (done) this.polls.delete(poll);
    }
  }

  private startWrite(p: Pending, started: number): void {
    p.failed = false;
    p.written = this.writePending(p, started);
    p.written.catch((err) => {
      p.failed = true;
      this.options.log?.({ type: 'error', where: `flush ${p.id}`, message: String((err as Error)?.message ?? err) });
    });
  }

  private async writePending(p: Pending, started: number): Promise<LiveSegment> {
    const bytes = await p.flushed;
    const name = segmentFileName(p.id);
    try {
      await this.dir.writeFile(name, [bytes]);
    } catch (err) {
      await this.dir.deleteFile(name).catch(() => undefined);
      throw err;
    }
    const core = new SegmentCore(bytes, name);
    // swap (synchronous): the buffer's deletions, including those made while flushing, move over
    const live: LiveSegment = {
      core,
      bits: p.buffer.deletionBits(),
      delCount: p.buffer.delCount,
      committedDelGen: 0,
      committedDelCount: 0,
      merging: false,
      analysis: ANALYSIS_VERSION,
    };
    const i = this.pendings.indexOf(p);
    if (i >= 0) this.pendings.splice(i, 1);
    dropKeys(this.keyDocs, p.buffer);
    this.segments.push(live);
    this.writingIds.delete(p.id);
    this.options.log?.({
      type: 'flush',
      segment: p.id,
      docs: core.maxDoc,
      bytes: bytes.length,
      ms: Date.now() - started,
    });
    this.onSegmentsChanged?.();
    return live;
  }

  /**
   * Data recorded with the next commit (Lucene's commit user data), captured at the same
   * point in time as the documents: e.g. the sequence number of the last operation applied,
   * so that after a crash the caller replays exactly what the last commit does not contain.
   * Counts as a change (the next periodic commit records it even without new documents).
   */
  setCommitData(data: Record<string, string | number>): void {
    this.checkOpen();
    this.commitData = { ...data };
    this.changed = true;
  }

  /** Makes everything added or deleted before this call durable and visible to new searchers. */
  commit(): Promise<CommitInfo> {
    if (this.closed) return Promise.reject(new EngineError('CLOSED', 'index writer is closed'));
    if (this.queued) return this.queued;
    if (!this.committing) {
      const run = this.runCommit().finally(() => {
        if (this.committing === run) this.committing = null;
      });
      this.committing = run;
      return run;
    }
    const next = this.committing
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.commit();
      });
    this.queued = next;
    return next;
  }

  private async runCommit(): Promise<CommitInfo> {
    const started = Date.now();
    // point-in-time capture
    const userData = { ...this.commitData };
    this.seal();
    this.changed = false;
    // segments whose every doc is deleted leave the commit point (their files go with cleanup)
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const s = this.segments[i];
      if (!s.merging && s.delCount >= s.core.maxDoc) this.segments.splice(i, 1);
    }
    const pendings = [...this.pendings];
    for (const p of pendings) if (p.failed) this.startWrite(p, started);
    const pendingDels = pendings.map((p) => ({ bits: p.buffer.deletionBits(), delCount: p.buffer.delCount }));
    const segs = this.segments.map((s) => ({ s, bits: s.bits.slice(), delCount: s.delCount }));
    // a failed attempt may have left deletion files named after its generation: never reuse it
    const generation = Math.max(this.point.generation, this.lastAttempt) + 1;
    this.lastAttempt = generation;

    let written: LiveSegment[];
    try {
      written = await Promise.all(pendings.map((p) => p.written!));
    } catch (err) {
      this.changed = true;
      throw asIoError(err, 'flush failed');
    }
    const all = [
      ...segs,
      ...written.map((s, i) => ({ s, bits: pendingDels[i].bits, delCount: pendingDels[i].delCount })),
    ];
    const entries: SegmentEntry[] = [];
    const delWrites: Promise<void>[] = [];
    const newDelGens: { s: LiveSegment; gen: number; count: number }[] = [];
    for (const { s, bits, delCount } of all) {
      let delGen = s.committedDelGen;
      if (delCount !== s.committedDelCount) {
        delGen = generation;
        newDelGens.push({ s, gen: generation, count: delCount });
        delWrites.push(
          this.dir.writeFile(deletionFileName(s.core.id, generation), [encodeDeletions(bits, s.core.maxDoc, delCount)]),
        );
      }
      entries.push({ id: s.core.id, maxDoc: s.core.maxDoc, delGen, delCount, analysis: s.analysis });
    }
    const docCount = entries.reduce((n, e) => n + e.maxDoc - e.delCount, 0);
    const point: CommitPoint = {
      generation,
      committedAt: Date.now(),
      nextSegment: this.point.nextSegment,
      segments: entries,
      docCount,
      userData,
    };
    try {
      await Promise.all(delWrites);
      await this.dir.syncDirectory();
      await this.commitLog.append(point);
    } catch (err) {
      this.changed = true;
      throw asIoError(err, 'commit failed');
    }
    for (const { s, gen, count } of newDelGens) {
      s.committedDelGen = gen;
      s.committedDelCount = count;
    }
    this.point = { ...point, nextSegment: Math.max(point.nextSegment, this.point.nextSegment) };
    const info = this.info(point);
    const views = all.map(({ s, bits, delCount }) => new SegmentView(s.core, bits, delCount));
    for (const l of this.listeners) {
      try {
        l({ info, views });
      } catch {
        // listeners must not break commits
      }
    }
    this.options.log?.({ type: 'commit', generation, docCount, segments: entries.length, ms: Date.now() - started });
    await this.collectFiles().catch((err) =>
      this.options.log?.({ type: 'error', where: 'cleanup', message: String(err) }),
    );
    if (this.pendings.length === 0) releasePooledLogs();
    this.onSegmentsChanged?.();
    return info;
  }

  /** Deletes segment and deletion files no longer referenced by the commit point, the writer or a searcher. */
  async collectFiles(): Promise<void> {
    const ids = new Set<string>(this.writingIds);
    for (const s of this.segments) ids.add(s.core.id);
    for (const p of this.pendings) ids.add(p.id);
    for (const id of this.inUseIds()) ids.add(id);
    const keep = new Set<string>();
    for (const point of this.pinned) for (const f of referencedFiles(point)) keep.add(f);
    await removeUnusedFiles(this.dir, this.point, ids, keep);
  }

  /**
   * Pins the last commit point (online backups): its write-once files (segments, deletions)
   * are not removed until `release()`, and `commitLog` is a complete commit log holding only
   * that point, so the files plus that log open as exactly this commit elsewhere.
   */
  pinCommit(): CommitSnapshotFiles {
    this.checkOpen();
    const point = this.point;
    this.pinned.add(point);
    return {
      generation: point.generation,
      docCount: point.docCount,
      userData: { ...(point.userData ?? {}) },
      files: [...referencedFiles(point)],
      commitLog: { name: logFileName(1), bytes: encodeRecord(point) },
      release: () => void this.pinned.delete(point),
    };
  }

  /** Live documents of segments written with an older analysis version than ANALYSIS_VERSION. */
  get staleAnalysisDocs(): number {
    let n = 0;
    for (const s of this.segments) if (s.analysis < ANALYSIS_VERSION) n += s.core.maxDoc - s.delCount;
    return n;
  }

  /** True when something changed since the last commit started. */
  get hasChanges(): boolean {
    return this.changed || this.pendings.length > 0 || this.buffer.numDocs > 0;
  }

  /** Marks the segment list changed (after a merge swap). */
  markChanged(): void {
    this.changed = true;
  }

  /** Waits for running commits; commits outstanding changes; further use fails with CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.hasChanges) await this.commit();
    else if (this.committing) await this.committing.catch(() => undefined);
    if (this.queued) await this.queued.catch(() => undefined);
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private info(point: CommitPoint): CommitInfo {
    return {
      generation: point.generation,
      committedAt: point.committedAt,
      docCount: point.docCount,
      userData: { ...(point.userData ?? {}) },
    };
  }

  private checkOpen(): void {
    if (this.closed) throw new EngineError('CLOSED', 'index writer is closed');
  }
}

/** The file image of a flushed segment. */
function imageOf(seg: FlushedSegment): Uint8Array {
  const bytes = concatChunks(seg.chunks, seg.size);
  seg.recycle();
  return bytes;
}

/** Removes the key map entries of `buffer`'s live docs (its segment now holds them). */
function dropKeys(keyDocs: Map<string, number>, buffer: SegmentBuffer): void {
  const keys = buffer.keys;
  const deleted = buffer.deleted;
  for (let d = 0; d < keys.length; d++) if ((deleted[d >>> 3] & (1 << (d & 7))) === 0) keyDocs.delete(keys[d]);
}

function sampleText(text: Record<string, string>): string {
  let s = '';
  for (const f in text) {
    s += text[f].slice(0, 2000) + '\n';
    if (s.length > 4000) break;
  }
  return s;
}

function asIoError(err: unknown, message: string): EngineError {
  if (err instanceof EngineError) return err;
  return new EngineError('IO', `${message}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
