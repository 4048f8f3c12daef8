/**
 * The indexing pipeline: acknowledged queue operations are applied to the
 * engine strictly in sequence order. Binary bodies are extracted ahead of time
 * (a small look-ahead window runs extractions in parallel on the worker pool),
 * but the engine sees the operations in order. The writer's commit data is set
 * to the sequence number of the last applied operation before the pipeline
 * yields (a commit can only start then), so every engine commit records exactly
 * which operations it contains; on start the operations after that number are
 * replayed (indexed once, none twice).
 *
 * Operations arrive in batches (one per push request) that share one
 * durability promise; a batch is applied once it is durable and dropped if its
 * append failed. Text bodies are prepared synchronously; the work runs in
 * slices of at most `sliceMs` (16 ms), yielding to the event loop in between
 * so that requests and searches keep answering.
 *
 * Outcomes the index cannot tell (skipped, failed, and what supersedes
 * them) are reported to `outcomes` in sequence order before the operation is
 * applied; when the report returns a promise, the operation waits for it (the
 * record is durable before any commit can contain the operation's effect).
 * Reports run ahead over the operations ready to report, so a run of them
 * shares one fsync.
 *
 * Backpressure: pushes wait in `capacity()` while the operations not yet
 * applied exceed a byte bound (memory) or would take longer than
 * `maxPendingMs` to apply at the measured rate (so that a `sent` document
 * becomes searchable about one commit interval later, instead of after an
 * ever-growing backlog). Waiting pushes are let in in order, as long as the
 * operations they announced fit.
 */
import type { Index, IndexDocument } from '../../engine/index.ts';
import type { Logger } from '../log.ts';
import { documentKey } from './index-schema.ts';
import { toIndexDocument, type DocumentText } from './convert.ts';
import type { QueueOp, QueuedDocument } from './queue.ts';
import type { StatusRegistry } from './status.ts';

/** What a body reader produces for one document. */
export interface BodyResult {
  text: DocumentText;
  suffix: string;
  mediaFileType: string;
}

/**
 * Turns a queued document's body into text (extraction for binaries); may answer synchronously
 * (plain text) or with a promise. Throws or rejects with a message for the status.
 */
export type BodyReader = (doc: QueuedDocument) => BodyResult | Promise<BodyResult>;

/**
 * Where the pipeline reports each operation's outcome (sequence order, before applying it;
 * `failure`: why an upsert is not indexed). A returned promise delays applying the operation
 * until it settles (see status-log.ts).
 */
export interface OutcomeRecorder {
  report(op: QueueOp, failure?: string): Promise<void> | undefined;
}

export interface PipelineOptions {
  index: Index;
  readBody: BodyReader;
  statuses: StatusRegistry;
  /** Durable record of outcomes (default: none). */
  outcomes?: OutcomeRecorder;
  log: Logger;
  now: () => number;
  /** Bytes of unapplied operations above which pushes wait (default 256 MiB). */
  maxPendingBytes?: number;
  /** Operations prepared (extracted) ahead of the one being applied (default 4). */
  lookahead?: number;
  /** Estimated time to apply the backlog above which pushes wait (default 200 ms). */
  maxPendingMs?: number;
  /** Longest stretch of indexing work before the pipeline yields to the event loop (default 16 ms). */
  sliceMs?: number;
}

const SLICE_MS = 16;
/** Text bodies an outcome report that must be waited for prepares early, so that their reports share the wait. */
const REPORT_AHEAD = 64;
/** Assumed wall time per operation until the pipeline has measured its rate (cautious: a cold start is slow). */
const INITIAL_MS_PER_OP = 0.5;

type Prepared = { kind: 'add'; doc: IndexDocument } | { kind: 'fail'; message: string } | { kind: 'other' };

/** Operations appended together: durable (or failed) together. */
interface Batch {
  durable: Promise<void>;
  /** undefined while the append is in flight; then whether it became durable. */
  ok: boolean | undefined;
}

interface Pending {
  op: QueueOp;
  batch: Batch;
  bytes: number;
  prepared?: Prepared | Promise<Prepared>;
  /** undefined: outcome not reported yet; null: reported, nothing to wait for; else the record's durability. */
  gate?: Promise<void> | null;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class IndexingPipeline {
  /** Unapplied operations in sequence order, from `head` on. */
  private items: Pending[] = [];
  private head = 0;
  private pendingBytes = 0;
  private running: Promise<void> | null = null;
  private capacityWaiters: { resolve: () => void; ops: number }[] = [];
  private readonly maxPendingBytes: number;
  private readonly maxPendingMs: number;
  private readonly sliceMs: number;
  private readonly lookahead: number;
  /** Measured wall time per applied operation while busy (moving average, ms). */
  private msPerOp = INITIAL_MS_PER_OP;
  private rateMark = { at: 0, applied: 0 };
  private appliedCount = 0;
  private indexed = 0;
  private failures = 0;
  /** Sequence number last recorded as the writer's commit data. */
  private recordedSeq: number;
  /** Highest sequence number handed to the engine writer. */
  appliedSeq: number;

  constructor(
    private readonly options: PipelineOptions,
    startSeq: number,
  ) {
    this.maxPendingBytes = options.maxPendingBytes ?? 256 * 1024 * 1024;
    this.maxPendingMs = options.maxPendingMs ?? 200;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.lookahead = Math.max(1, options.lookahead ?? 4);
    this.appliedSeq = startSeq;
    this.recordedSeq = startSeq;
  }

  /** Operations waiting to be applied (diagnostics, tests). */
  get backlog(): number {
    return this.items.length - this.head;
  }

  /** Documents handed to the engine writer so far (metrics: documents indexed per second). */
  get indexedCount(): number {
    return this.indexed;
  }

  /** Documents not indexed because their extraction or indexing failed, so far (metrics). */
  get failedCount(): number {
    return this.failures;
  }

  /** Estimated wall time to apply the backlog at the measured rate (ms). */
  get backlogMs(): number {
    return this.backlog * this.msPerOp;
  }

  /**
   * Resolves when there is room for `ops` more operations (in call order). The caller submits
   * them right after (synchronously), or not at all.
   */
  capacity(ops = 1): Promise<void> {
    if (this.capacityWaiters.length === 0 && this.hasRoom(0)) return Promise.resolve();
    return new Promise((resolve) => this.capacityWaiters.push({ resolve, ops }));
  }

  /** Whether the backlog plus `extra` operations about to be submitted stays within the bounds. */
  private hasRoom(extra: number): boolean {
    if (this.backlog + extra === 0) return true;
    return this.pendingBytes < this.maxPendingBytes && (this.backlog + extra) * this.msPerOp < this.maxPendingMs;
  }

  /**
   * Lets waiting pushes in, in order, while there is room for their operations (`all`: every
   * waiter, when the backlog is empty). Called where the pipeline yields: a push let in submits
   * before the pipeline runs again, so each call starts from the real backlog.
   */
  private admit(all: boolean): void {
    let extra = 0;
    while (this.capacityWaiters.length > 0 && (all || this.hasRoom(extra))) {
      const w = this.capacityWaiters.shift()!;
      extra += w.ops;
      w.resolve();
    }
  }

  /**
   * Hand over an operation in sequence order (call right after the queue assigned its number);
   * it is applied once `durable` resolves, and dropped if `durable` rejects.
   */
  submit(op: QueueOp, durable: Promise<void>, bytes: number): void {
    this.submitMany([op], durable, [bytes]);
  }

  /** Hand over operations appended together (sequence order), durable together; `bytes[i]` sizes `ops[i]`. */
  submitMany(ops: readonly QueueOp[], durable: Promise<void>, bytes: readonly number[]): void {
    if (ops.length === 0) return;
    const batch: Batch = { durable, ok: undefined };
    durable.then(
      () => (batch.ok = true),
      () => (batch.ok = false),
    );
    for (let i = 0; i < ops.length; i++) {
      this.items.push({ op: ops[i], batch, bytes: bytes[i] });
      this.pendingBytes += bytes[i];
    }
    this.running ??= this.runAll();
  }

  /** Runs until the backlog is empty, including operations submitted while it runs. */
  private async runAll(): Promise<void> {
    try {
      while (this.backlog > 0) await this.run();
    } finally {
      this.running = null;
    }
  }

  /** Resolves when everything submitted so far has been applied to the writer. */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    let slice = performance.now();
    this.rateMark = { at: slice, applied: this.appliedCount };
    while (this.head < this.items.length) {
      if (performance.now() - slice > this.sliceMs) {
        // Indexing is synchronous CPU work: yield to I/O so requests and searches keep answering.
        await this.pause(yieldToEventLoop());
        slice = performance.now();
      }
      const head = this.items[this.head];
      if (head.batch.ok === undefined) {
        await this.pause(head.batch.durable.catch(() => undefined));
        continue;
      }
      this.prepareAhead();
      const prepared = head.prepared!;
      if (prepared instanceof Promise) {
        head.prepared = await this.pause(prepared);
        continue;
      }
      if (head.gate === undefined) {
        this.reportAhead();
        if (head.gate) {
          await this.pause(head.gate);
          head.gate = null;
          continue;
        }
      }
      if (head.batch.ok) this.apply(head.op, prepared);
      this.items[this.head++] = undefined as unknown as Pending;
      this.pendingBytes -= head.bytes;
      if (this.head >= 4096 && this.head * 2 >= this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
    }
    this.recordApplied();
    this.measure(performance.now());
    this.admit(true);
  }

  /**
   * Before the pipeline waits (a commit may run meanwhile): records the applied sequence number
   * as commit data, updates the measured rate and lets a waiting push in.
   */
  private pause<T>(p: Promise<T>): Promise<T> {
    this.recordApplied();
    this.measure(performance.now());
    this.admit(false);
    return p;
  }

  /** Wall time per applied operation since the last mark (including time yielded to others). */
  private measure(now: number): void {
    const ops = this.appliedCount - this.rateMark.applied;
    const ms = now - this.rateMark.at;
    if (ops === 0 || (ops < 32 && ms < 25)) return;
    this.msPerOp = 0.7 * this.msPerOp + 0.3 * (ms / ops);
    this.rateMark = { at: now, applied: this.appliedCount };
  }

  private recordApplied(): void {
    if (this.recordedSeq === this.appliedSeq) return;
    this.recordedSeq = this.appliedSeq;
    this.options.index.writer.setCommitData({ queueSeq: this.appliedSeq });
  }

  /** Starts preparing the head and the next `lookahead - 1` operations (extractions run in parallel). */
  private prepareAhead(): void {
    const end = Math.min(this.items.length, this.head + this.lookahead);
    for (let i = this.head; i < end; i++) {
      const p = this.items[i];
      p.prepared ??= this.prepare(p.op);
    }
  }

  /**
   * Reports outcomes from the head (prepared, durable batch) on, in order, until an operation whose
   * outcome is not known yet; once a report must be waited for, text bodies ahead are prepared so
   * that more reports share the wait.
   */
  private reportAhead(): void {
    const recorder = this.options.outcomes;
    if (!recorder) {
      this.items[this.head].gate = null;
      return;
    }
    let waits = false;
    let early = 0;
    for (let i = this.head; i < this.items.length; i++) {
      const p = this.items[i];
      if (p.gate !== undefined) continue;
      if (p.batch.ok === undefined) break;
      if (!p.batch.ok) {
        p.gate = null;
        continue;
      }
      if (p.op.op === 'upsert') {
        if (
          p.prepared === undefined &&
          waits &&
          p.op.doc.binary_base64 === null &&
          !p.op.doc.binary_blob &&
          early < REPORT_AHEAD
        ) {
          p.prepared = this.prepare(p.op);
          early++;
        }
        if (p.prepared === undefined || p.prepared instanceof Promise) break;
      }
      const prepared = p.prepared as Prepared | undefined;
      const failure =
        prepared?.kind === 'fail'
          ? failureMessage(prepared.message)
          : prepared?.kind === 'other' && p.op.op === 'upsert'
            ? failureMessage('not indexed')
            : undefined;
      const durable = recorder.report(p.op, failure);
      p.gate = durable
        ? durable.catch((err) =>
            this.options.log.error('could not record a document status', { seq: p.op.seq, error: err }),
          )
        : null;
      if (durable) waits = true;
    }
  }

  private prepare(op: QueueOp): Prepared | Promise<Prepared> {
    if (op.op !== 'upsert') return { kind: 'other' };
    let body: BodyResult | Promise<BodyResult>;
    try {
      body = this.options.readBody(op.doc);
    } catch (err) {
      return failed(err);
    }
    if (body instanceof Promise) return body.then((b) => this.convert(op, b), failed);
    return this.convert(op, body);
  }

  private convert(op: Extract<QueueOp, { op: 'upsert' }>, body: BodyResult): Prepared {
    try {
      const { text, suffix, mediaFileType } = body;
      return {
        kind: 'add',
        doc: toIndexDocument(op.doc, text, { seq: op.seq, suffix, mediaFileType, indexedAt: this.options.now() }),
      };
    } catch (err) {
      return failed(err);
    }
  }

  private apply(op: QueueOp, prepared: Prepared): void {
    const { writer } = this.options.index;
    try {
      if (op.op === 'upsert') {
        if (prepared.kind === 'add') {
          writer.add(prepared.doc);
          this.indexed++;
        } else {
          // A version that cannot be indexed must not leave an older one (maybe with wider permissions) searchable.
          writer.delete(documentKey(op.doc.datasource, op.doc.id));
          this.fail(op, prepared.kind === 'fail' ? prepared.message : 'not indexed', false);
        }
      } else if (op.op === 'delete') {
        writer.delete(documentKey(op.datasource, op.id));
      } else {
        writer.deleteByKeyword('datasource', op.datasource);
      }
    } catch (err) {
      if (op.op === 'upsert') {
        writer.delete(documentKey(op.doc.datasource, op.doc.id));
        this.fail(op, err instanceof Error ? err.message : String(err), true);
      } else {
        this.options.log.error('indexing operation failed', { seq: op.seq, op: op.op, error: err });
      }
    }
    this.appliedSeq = op.seq;
    this.appliedCount++;
  }

  /** `report`: the failure was not known before applying (an engine error), so it is reported now, not waited for. */
  private fail(op: Extract<QueueOp, { op: 'upsert' }>, message: string, report: boolean): void {
    this.failures++;
    const key = documentKey(op.doc.datasource, op.doc.id);
    const st = this.options.statuses.get(key);
    if (st && st.seq === op.seq) {
      st.state = 'failed';
      st.outcome = 'failed';
      st.message = failureMessage(message);
    }
    if (report)
      this.options.outcomes
        ?.report(op, failureMessage(message))
        ?.catch((err) => this.options.log.error('could not record a document status', { seq: op.seq, error: err }));
    this.options.log.warn('document not indexed', { datasource: op.doc.datasource, id: op.doc.id, reason: message });
  }
}

const failureMessage = (message: string) => `extraction or indexing failed: ${message}`;

function failed(err: unknown): Prepared {
  return { kind: 'fail', message: err instanceof Error ? err.message : String(err) };
}
