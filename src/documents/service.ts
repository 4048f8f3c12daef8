/**
 * The documents service: opens the durable queue next to the engine, replays
 * what the last engine commit does not contain, runs the pipeline, follows
 * engine commits (statuses, commit times, queue release, `?wait=true`), and
 * removes the documents of deleted datasources.
 *
 * Statuses: `queued`, `indexed` and `deleted` are tracked in memory (indexed
 * documents are also answered from the committed index); `skipped` and `failed`
 * are durable in `statuses.bin` (status-log.ts), loaded at start as of the
 * engine's last commit, before the replayed queue operations (which decide the
 * documents they touch).
 *
 * Stored binaries (blobs.ts) live until the engine commit that contains their
 * document; at start, those no replayed operation names are removed.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Index } from '../../engine/index.ts';
import { onIndexingEvent } from '../controlplane/events.ts';
import { indexingState } from '../controlplane/datasources.ts';
import type { Logger } from '../log.ts';
import type { StateStore } from '../state/store.ts';
import { documentKey } from './index-schema.ts';
import { RecordLogWriter, replayFile } from '../storage/record-log.ts';
import { BlobStore, blobsDir } from './blobs.ts';
import { IndexingPipeline, type BodyReader } from './pipeline.ts';
import { DocumentQueue, type NewQueueOp, type QueueOp } from './queue.ts';
import { CommitTimes, StatusRegistry } from './status.ts';
import { readStatusLog, StatusLogWriter, type RejectedStatus } from './status-log.ts';

export interface DocumentServiceOptions {
  dir: string;
  index: Index;
  state: StateStore;
  readBody: BodyReader;
  log: Logger;
  now: () => number;
  maxPendingBytes?: number;
  /** Records in statuses.bin before a compaction is considered (default 1,024). */
  statusCompactMinRecords?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class DocumentService {
  readonly statuses = new StatusRegistry();
  readonly commitTimes = new CommitTimes();
  private committedSeq = 0;
  private waiters: { seq: number; resolve: (ok: boolean) => void }[] = [];
  private unsubscribe: (() => void)[] = [];
  /** Stored binaries of queued upserts not yet committed, in sequence order. */
  private blobSeqs: { seq: number; name: string }[] = [];
  /** Sequence number of the last operation replayed at start (0: none). */
  private replayThrough = 0;
  /** Per enqueue (oldest first): its last sequence number and when it arrived; dropped once committed. */
  private arrivals: { seq: number; at: number }[] = [];

  private constructor(
    readonly index: Index,
    readonly queue: DocumentQueue,
    readonly pipeline: IndexingPipeline,
    private readonly commitLog: RecordLogWriter,
    readonly statusLog: StatusLogWriter,
    readonly blobs: BlobStore,
    private readonly options: DocumentServiceOptions,
  ) {}

  static async open(options: DocumentServiceOptions): Promise<DocumentService> {
    await mkdir(options.dir, { recursive: true });
    const committedSeq = Number(options.index.reader.commitData.queueSeq ?? 0);
    const commitsPath = join(options.dir, 'commit-times.bin');
    const replayed = await replayFile(commitsPath, options.log);
    const { queue, ops } = await DocumentQueue.open(join(options.dir, 'queue'), options.log, { minSeq: committedSeq });
    const statusPath = join(options.dir, 'statuses.bin');
    const statusLog = new StatusLogWriter(statusPath, await readStatusLog(statusPath, options.log, committedSeq), {
      log: options.log,
      compactMinRecords: options.statusCompactMinRecords,
    });
    const pipeline = new IndexingPipeline(
      {
        index: options.index,
        readBody: options.readBody,
        statuses: new StatusRegistry(),
        outcomes: statusLog,
        log: options.log,
        now: options.now,
        maxPendingBytes: options.maxPendingBytes,
      },
      committedSeq,
    );
    const service = new DocumentService(
      options.index,
      queue,
      pipeline,
      new RecordLogWriter(commitsPath, { size: replayed.size }),
      statusLog,
      await BlobStore.open(blobsDir(options.dir), options.log),
      options,
    );
    (pipeline as unknown as { options: { statuses: StatusRegistry } }).options.statuses = service.statuses;
    service.committedSeq = committedSeq;
    for (const rec of replayed.records) {
      const { seq, at } = JSON.parse(decoder.decode(rec)) as { seq: number; at: number };
      service.commitTimes.add(seq, at);
    }
    await service.loadRejected();
    const replay = ops.filter((op) => op.seq > committedSeq);
    for (const op of replay) service.track(op, options.now());
    const removed = await service.blobs.keepOnly(new Set(service.blobSeqs.map((b) => b.name)));
    if (removed > 0) options.log.info('removed stored binaries no queued document needs', { count: removed });
    pipeline.submitMany(replay, Promise.resolve(), replay.map(approximateBytes));
    if (replay.length > 0) {
      service.replayThrough = replay[replay.length - 1].seq;
      service.arrivals.push({ seq: service.replayThrough, at: options.now() });
    }
    if (replay.length > 0)
      options.log.info('replaying acknowledged indexing operations', { count: replay.length, fromSeq: replay[0].seq });
    await queue.releaseThrough(committedSeq);
    service.unsubscribe.push(options.index.reader.onCommit((info) => service.onCommit(info)));
    service.unsubscribe.push(
      onIndexingEvent(options.state, async (event) => {
        if (event.type === 'indexing.datasource_deleted') await service.dropDatasource(event.name);
      }),
    );
    await service.reconcileDatasources(replay);
    return service;
  }

  /** Append an operation durably and hand it to the pipeline; resolves with its sequence number once durable. */
  async enqueue(op: NewQueueOp): Promise<number> {
    const { seq, durable, op: full } = this.queue.append(op);
    this.arrived(seq);
    this.track(full, this.options.now());
    this.pipeline.submit(full, durable, approximateBytes(full));
    await durable;
    return seq;
  }

  /**
   * Append operations durably as one batch (sequence order = array order) and hand them to the
   * pipeline; their statuses are tracked at once. `durable` resolves once they are fsynced.
   * `raw[i]`: the pushed item's JSON for an upsert (see DocumentQueue.appendMany).
   */
  enqueueMany(
    ops: readonly NewQueueOp[],
    raw?: readonly (Uint8Array | undefined)[],
  ): { seqs: number[]; durable: Promise<void> } {
    const { seqs, durable, ops: full } = this.queue.appendMany(ops, raw);
    const now = this.options.now();
    if (seqs.length > 0) this.arrived(seqs[seqs.length - 1]);
    for (const op of full) this.track(op, now);
    this.pipeline.submitMany(full, durable, full.map(approximateBytes));
    return { seqs, durable };
  }

  /** Wait until every operation up to `seq` is committed to the engine; false on timeout. */
  waitCommitted(seq: number, timeoutMs: number): Promise<boolean> {
    if (seq <= this.committedSeq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const entry = { seq, resolve };
      this.waiters.push(entry);
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve(false);
      }, timeoutMs);
      entry.resolve = (ok) => {
        clearTimeout(timer);
        resolve(ok);
      };
    });
  }

  get lastCommittedSeq(): number {
    return this.committedSeq;
  }

  /** Whether the operations replayed at start (acknowledged, not in the last commit) are applied to the writer. */
  get replayed(): boolean {
    return this.pipeline.appliedSeq >= this.replayThrough;
  }

  /** When the oldest operation not yet committed arrived (epoch ms), or undefined when all are committed. */
  get oldestUncommittedAt(): number | undefined {
    return this.arrivals[0]?.at;
  }

  private arrived(seq: number): void {
    if (seq > this.committedSeq) this.arrivals.push({ seq, at: this.options.now() });
  }

  /**
   * Whether the committed index may still hold documents of a deleted datasource `name` (its drop is
   * queued, not yet committed). While it does, none of the committed documents of that name belong to a
   * datasource created again under it (it is created once the drop is queued, and its pushes queue after
   * it), so readers treat them as gone: searches hide the name, check-access answers 404.
   */
  dropPending(name: string): boolean {
    return this.statuses.droppedAfter(name, this.committedSeq);
  }

  async dropDatasource(name: string): Promise<void> {
    // Statuses are forgotten when the drop is tracked; the pipeline drops the durable statuses when it applies the drop (before the engine sees it).
    await this.enqueue({ op: 'drop_datasource', datasource: name });
  }

  async close(): Promise<void> {
    for (const u of this.unsubscribe) u();
    await this.pipeline.drained();
    await this.queue.close();
    await this.commitLog.close();
    await this.statusLog.close();
  }

  /**
   * Durable skipped/failed statuses into the registry: those of datasources that no longer exist
   * are dropped, those superseded by a later version in the committed index are forgotten.
   */
  private async loadRejected(): Promise<void> {
    const known = indexingState({ state: this.options.state }).datasources;
    const gone = new Set<string>();
    const rejected: RejectedStatus[] = [];
    const searcher = this.index.reader.searcher();
    try {
      for (const e of this.statusLog.values()) {
        if (!known.has(e.datasource)) gone.add(e.datasource);
        else if (Number(searcher.get(documentKey(e.datasource, e.document_id))?.stored.seq ?? -1) > e.seq)
          this.statusLog.forget(e.datasource, e.document_id);
        else rejected.push(e);
      }
    } finally {
      this.index.reader.release(searcher);
    }
    for (const name of gone) await this.statusLog.dropDatasource(name, this.committedSeq);
    for (const e of rejected) {
      this.statuses.set(documentKey(e.datasource, e.document_id), {
        datasource: e.datasource,
        document_id: e.document_id,
        state: e.state,
        outcome: e.state,
        message: e.message,
        last_modified: e.last_modified,
        tokens: [],
        seq: e.seq,
        received_at: e.received_at,
        committed_at: null,
      });
    }
  }

  /** Record the effect of an operation in the status registry (queued / deleted / skipped / dropped). */
  private track(op: QueueOp, now: number): void {
    if (op.op === 'upsert' && op.doc.binary_blob) this.blobSeqs.push({ seq: op.seq, name: op.doc.binary_blob.name });
    if (op.op === 'drop_datasource') {
      this.statuses.dropDatasource(op.datasource, op.seq);
    } else if (op.op === 'upsert') {
      const d = op.doc;
      this.statuses.set(`${d.datasource}:${d.id}`, {
        datasource: d.datasource,
        document_id: d.id,
        state: 'queued',
        outcome: 'sent',
        message: 'queued for indexing; searchable after the next commit',
        last_modified: d.last_modified,
        tokens: d.tokens,
        seq: op.seq,
        received_at: d.received_at ?? now,
        committed_at: null,
      });
    } else if (op.op === 'delete' && op.skipped) {
      this.statuses.set(`${op.datasource}:${op.id}`, {
        datasource: op.datasource,
        document_id: op.id,
        state: 'skipped',
        outcome: 'skipped',
        message: op.skipped.message,
        last_modified: op.skipped.last_modified,
        tokens: [],
        seq: op.seq,
        received_at: op.skipped.received_at,
        committed_at: null,
      });
    } else if (op.op === 'delete') {
      const prev = this.statuses.get(`${op.datasource}:${op.id}`);
      this.statuses.set(`${op.datasource}:${op.id}`, {
        datasource: op.datasource,
        document_id: op.id,
        state: 'deleted',
        outcome: prev?.outcome ?? 'sent',
        message: 'deleted; gone from search after the next commit',
        last_modified: prev?.last_modified ?? null,
        tokens: [],
        seq: op.seq,
        received_at: now,
        committed_at: null,
      });
    }
  }

  private onCommit(info: { committedAt: number; userData?: Record<string, unknown> }): void {
    const seq = Number(info.userData?.queueSeq ?? this.committedSeq);
    if (seq <= this.committedSeq) return;
    this.committedSeq = seq;
    this.statuses.committed(seq, info.committedAt);
    this.commitTimes.add(seq, info.committedAt);
    let done = 0;
    while (done < this.arrivals.length && this.arrivals[done].seq <= seq) done++;
    if (done > 0) this.arrivals.splice(0, done);
    this.commitLog.append(encoder.encode(JSON.stringify({ seq, at: info.committedAt }))).catch((err) => {
      this.options.log.warn('could not record a commit time', { error: err });
    });
    const ready = this.waiters.filter((w) => w.seq <= seq);
    this.waiters = this.waiters.filter((w) => w.seq > seq);
    for (const w of ready) w.resolve(true);
    this.queue
      .releaseThrough(seq)
      .catch((err) => this.options.log.warn('could not release drained queue files', { error: err }));
    let stored = 0;
    while (stored < this.blobSeqs.length && this.blobSeqs[stored].seq <= seq) stored++;
    // The commit contains these documents: replay never reads their binaries again.
    for (const b of this.blobSeqs.splice(0, stored)) void this.blobs.remove(b.name);
  }

  /**
   * Documents of datasources that no longer exist (deleted while the process died, maybe before the
   * drop was queued) are removed: those in the committed index and those in the replayed queue.
   */
  private async reconcileDatasources(replay: readonly QueueOp[]): Promise<void> {
    const known = indexingState({ state: this.options.state }).datasources;
    const searcher = this.index.reader.searcher();
    const names = new Set(searcher.keywordValues('datasource'));
    this.index.reader.release(searcher);
    for (const op of replay) if (op.op === 'upsert') names.add(op.doc.datasource);
    for (const name of names) {
      if (!known.has(name)) {
        this.options.log.warn('removing documents of a deleted datasource', { datasource: name });
        await this.enqueue({ op: 'drop_datasource', datasource: name });
      }
    }
  }
}

function approximateBytes(op: QueueOp): number {
  if (op.op !== 'upsert') return 256;
  const d = op.doc;
  // A stored binary is on disk; its extraction's text is held while the pipeline works ahead.
  const stored = d.binary_blob ? Math.min(d.binary_blob.size, 10_000_000) * 2 : 0;
  return 1024 + (d.text_content?.length ?? 0) * 2 + (d.binary_base64?.length ?? 0) * 2 + d.title.length * 2 + stored;
}
