/**
 * The indexing pipeline: acknowledged queue operations are applied to the
 * engine strictly in sequence order. Binary bodies are extracted ahead of time
 * (a small look-ahead window runs extractions in parallel on the worker pool),
 * but the engine sees the operations in order. After applying an operation the
 * writer's commit data is set to its sequence number, so every engine commit
 * records exactly which operations it contains; on start the operations after
 * that number are replayed (indexed once, none twice).
 *
 * Backpressure: the bytes of operations not yet applied are bounded; pushes
 * wait in `capacity()` instead of growing memory without limit.
 */
import type { Index, IndexDocument } from '../../engine/index.ts';
import type { Logger } from '../log.ts';
import { documentKey } from '../search/index-schema.ts';
import { toIndexDocument, type DocumentText } from './convert.ts';
import type { QueueOp, QueuedDocument } from './queue.ts';
import type { StatusRegistry } from './status.ts';

/** Turns a queued document's body into text (extraction for binaries). Rejects with a message for the status. */
export type BodyReader = (doc: QueuedDocument) => Promise<{ text: DocumentText; suffix: string; mediaFileType: string }>;

export interface PipelineOptions {
  index: Index;
  readBody: BodyReader;
  statuses: StatusRegistry;
  log: Logger;
  now: () => number;
  /** Bytes of unapplied operations above which pushes wait (default 256 MiB). */
  maxPendingBytes?: number;
  /** Operations prepared (extracted) ahead of the one being applied (default 4). */
  lookahead?: number;
}

/** Longest stretch of indexing work before the pipeline yields to the event loop. */
const SLICE_MS = 8;

type Prepared = { kind: 'add'; doc: IndexDocument } | { kind: 'fail'; message: string } | { kind: 'other' };

interface Pending {
  op: QueueOp;
  durable: Promise<void>;
  bytes: number;
  prepared?: Promise<Prepared>;
}

export class IndexingPipeline {
  private readonly pending: Pending[] = [];
  private pendingBytes = 0;
  private running: Promise<void> | null = null;
  private capacityWaiters: (() => void)[] = [];
  private readonly maxPendingBytes: number;
  private readonly lookahead: number;
  /** Highest sequence number handed to the engine writer. */
  appliedSeq: number;

  constructor(
    private readonly options: PipelineOptions,
    startSeq: number,
  ) {
    this.maxPendingBytes = options.maxPendingBytes ?? 256 * 1024 * 1024;
    this.lookahead = Math.max(1, options.lookahead ?? 4);
    this.appliedSeq = startSeq;
  }

  /** Operations waiting to be applied (diagnostics, tests). */
  get backlog(): number {
    return this.pending.length;
  }

  /** Resolves when there is room for more operations. */
  capacity(): Promise<void> {
    if (this.pendingBytes < this.maxPendingBytes) return Promise.resolve();
    return new Promise((resolve) => this.capacityWaiters.push(resolve));
  }

  /**
   * Hand over an operation in sequence order (call right after the queue assigned its number);
   * it is applied once `durable` resolves, and dropped if `durable` rejects.
   */
  submit(op: QueueOp, durable: Promise<void>, bytes: number): void {
    durable.catch(() => undefined);
    this.pending.push({ op, durable, bytes });
    this.pendingBytes += bytes;
    this.running ??= this.run().finally(() => {
      this.running = null;
      if (this.pending.length > 0) this.running = this.run();
    });
  }

  /** Resolves when everything submitted so far has been applied to the writer. */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    let slice = performance.now();
    while (this.pending.length > 0) {
      if (performance.now() - slice > SLICE_MS) {
        // Indexing is synchronous CPU work: yield to I/O so requests and searches keep answering.
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      const window = Math.min(this.lookahead, this.pending.length);
      for (let i = 0; i < window; i++) {
        const p = this.pending[i];
        p.prepared ??= this.prepare(p.op);
      }
      const head = this.pending[0];
      let durable = true;
      try {
        await head.durable;
      } catch {
        durable = false;
      }
      const prepared = await head.prepared!;
      if (durable) this.apply(head.op, prepared);
      this.pending.shift();
      this.pendingBytes -= head.bytes;
      if (this.pendingBytes < this.maxPendingBytes) {
        const waiters = this.capacityWaiters;
        this.capacityWaiters = [];
        for (const w of waiters) w();
      }
    }
  }

  private async prepare(op: QueueOp): Promise<Prepared> {
    if (op.op !== 'upsert') return { kind: 'other' };
    try {
      const { text, suffix, mediaFileType } = await this.options.readBody(op.doc);
      return { kind: 'add', doc: toIndexDocument(op.doc, text, { seq: op.seq, suffix, mediaFileType, indexedAt: this.options.now() }) };
    } catch (err) {
      return { kind: 'fail', message: err instanceof Error ? err.message : String(err) };
    }
  }

  private apply(op: QueueOp, prepared: Prepared): void {
    const { writer } = this.options.index;
    try {
      if (op.op === 'upsert') {
        const key = documentKey(op.doc.datasource, op.doc.id);
        if (prepared.kind === 'add') {
          writer.add(prepared.doc);
        } else {
          // A version that cannot be indexed must not leave an older one (maybe with wider permissions) searchable.
          writer.delete(key);
          this.fail(op, prepared.kind === 'fail' ? prepared.message : 'not indexed');
        }
      } else if (op.op === 'delete') {
        writer.delete(documentKey(op.datasource, op.id));
      } else {
        writer.deleteByKeyword('datasource', op.datasource);
      }
    } catch (err) {
      if (op.op === 'upsert') {
        writer.delete(documentKey(op.doc.datasource, op.doc.id));
        this.fail(op, err instanceof Error ? err.message : String(err));
      } else {
        this.options.log.error('indexing operation failed', { seq: op.seq, op: op.op, error: err });
      }
    }
    this.appliedSeq = op.seq;
    writer.setCommitData({ queueSeq: op.seq });
  }

  private fail(op: Extract<QueueOp, { op: 'upsert' }>, message: string): void {
    const key = documentKey(op.doc.datasource, op.doc.id);
    const st = this.options.statuses.get(key);
    if (st && st.seq === op.seq) {
      st.state = 'failed';
      st.outcome = 'failed';
      st.message = `extraction or indexing failed: ${message}`;
    }
    this.options.log.warn('document not indexed', { datasource: op.doc.datasource, id: op.doc.id, reason: message });
  }
}
