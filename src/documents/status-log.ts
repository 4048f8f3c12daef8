/**
 * The durable part of document statuses: outcomes the search index cannot
 * tell, documents the pipeline `skipped` (computed suffix too long) or that
 * `failed` (extraction or indexing error). Indexed documents are answered from
 * the committed index, so they need no entry here.
 *
 * File `DATA_DIR/documents/statuses.bin`, framed records (record-log.ts), each the JSON of
 *   {k: "skipped" | "failed", ds, id, seq, msg, lm, at}  the document's state after queue operation `seq`
 *   {k: "clear", ds, id, seq}                           operation `seq` indexed or deleted it (entry superseded)
 *   {k: "drop", ds, seq}                                the datasource was deleted (its entries go)
 * Records are appended in queue order per document (the pipeline reports outcomes in sequence order).
 *
 * Reader: replays the records in file order, ignoring those whose `seq` is above the engine's committed
 * sequence number: their operations are not in the index, the queue replays them and the pipeline
 * writes their records again. The pipeline makes a skipped/failed record (and a clear by delete, a drop)
 * durable before it applies the operation to the engine, so every commit containing the operation's
 * effect has its record on disk. A clear by an indexed version is not waited for: an entry whose
 * document is in the committed index with a higher `seq` is superseded at load (the index wins).
 *
 * Compaction: when the file holds at least `compactMinRecords` (default 1,024) records and fewer than
 * half of them are live entries, the live entries are written to `statuses.bin.tmp`, fsynced and renamed
 * over the file (directory fsynced); appends made meanwhile wait and go after the new content. A crash
 * before the rename leaves the old file (the temporary file is removed at load); after it, the new one.
 */
import { rm } from 'node:fs/promises';
import type { Logger } from '../log.ts';
import { encodeFrames } from '../storage/frame.ts';
import { RecordLogWriter, replaceFileDurably, replayFile } from '../storage/record-log.ts';
import type { QueueOp } from './queue.ts';

export interface RejectedStatus {
  datasource: string;
  document_id: string;
  state: 'skipped' | 'failed';
  message: string;
  /** Queue sequence number of the operation that was skipped or failed. */
  seq: number;
  last_modified: string | null;
  received_at: number;
}

type StatusRecord =
  | { k: 'skipped' | 'failed'; ds: string; id: string; seq: number; msg: string; lm: string | null; at: number }
  | { k: 'clear'; ds: string; id: string; seq: number }
  | { k: 'drop'; ds: string; seq: number };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const keyOf = (datasource: string, id: string) => `${datasource}:${id}`;
const encodeRecord = (r: StatusRecord) => encoder.encode(JSON.stringify(r));
const setRecord = (e: RejectedStatus): StatusRecord => ({
  k: e.state,
  ds: e.datasource,
  id: e.document_id,
  seq: e.seq,
  msg: e.message,
  lm: e.last_modified,
  at: e.received_at,
});

/** Applies one record to the live entries (shared by the reader and the writer). */
function applyRecord(entries: Map<string, RejectedStatus>, r: StatusRecord): void {
  if (r.k === 'drop') {
    for (const [key, e] of entries) if (e.datasource === r.ds) entries.delete(key);
    return;
  }
  const key = keyOf(r.ds, r.id);
  const prev = entries.get(key);
  // A late report of an earlier operation never overrides a later one.
  if (prev && prev.seq > r.seq) return;
  if (r.k === 'clear') entries.delete(key);
  else
    entries.set(key, {
      datasource: r.ds,
      document_id: r.id,
      state: r.k,
      message: r.msg,
      seq: r.seq,
      last_modified: r.lm,
      received_at: r.at,
    });
}

export interface StatusLogContent {
  /** Live entries by document key (`<datasource>:<id>`), as of the committed sequence number. */
  entries: Map<string, RejectedStatus>;
  /** Records in the file (live or not), for the compaction rule. */
  records: number;
  size: number;
}

/** Reader side: the entries as of the engine commit `committedSeq` (torn tails are cut off, see record-log.ts). */
export async function readStatusLog(path: string, log: Logger, committedSeq: number): Promise<StatusLogContent> {
  await rm(`${path}.tmp`, { force: true });
  const replayed = await replayFile(path, log);
  const entries = new Map<string, RejectedStatus>();
  for (const rec of replayed.records) {
    let r: StatusRecord;
    try {
      r = JSON.parse(decoder.decode(rec)) as StatusRecord;
    } catch (err) {
      log.error('document status record is not JSON; skipped', { file: path, error: err });
      continue;
    }
    if (r.seq <= committedSeq) applyRecord(entries, r);
  }
  return { entries, records: replayed.records.length, size: replayed.size };
}

export interface StatusLogWriterOptions {
  log: Logger;
  /** Fewest records in the file before a compaction is considered (default 1,024). */
  compactMinRecords?: number;
}

/** Writer side: keeps the live entries, appends records (group commit) and compacts the file. */
export class StatusLogWriter {
  private readonly entries: Map<string, RejectedStatus>;
  private writer: RecordLogWriter;
  /** Records in the file, live or not. */
  private records: number;
  /** Records at which a compaction is considered (moves on after a failed one). */
  private compactAt: number;
  private compacting: Promise<void> | null = null;
  private readonly minRecords: number;

  constructor(
    readonly path: string,
    content: StatusLogContent,
    private readonly options: StatusLogWriterOptions,
  ) {
    this.entries = content.entries;
    this.records = content.records;
    this.writer = new RecordLogWriter(path, { size: content.size });
    this.minRecords = options.compactMinRecords ?? 1024;
    this.compactAt = this.minRecords;
  }

  get(datasource: string, id: string): RejectedStatus | undefined {
    return this.entries.get(keyOf(datasource, id));
  }

  values(): IterableIterator<RejectedStatus> {
    return this.entries.values();
  }

  /** Live entries and records in the file (diagnostics, tests). */
  get stats(): { live: number; records: number } {
    return { live: this.entries.size, records: this.records };
  }

  /**
   * The pipeline's report of an operation's outcome, in sequence order, before the operation is
   * applied (`failure`: why an upsert is not indexed). Returns the durability of the record when
   * the operation must wait for it (skipped, failed, a delete or drop superseding entries).
   */
  report(op: QueueOp, failure?: string): Promise<void> | undefined {
    if (op.op === 'upsert') {
      const d = op.doc;
      if (failure !== undefined) {
        return this.append({
          k: 'failed',
          ds: d.datasource,
          id: d.id,
          seq: op.seq,
          msg: failure,
          lm: d.last_modified,
          at: d.received_at,
        });
      }
      if (this.entries.size > 0 && this.entries.has(keyOf(d.datasource, d.id)))
        void this.append({ k: 'clear', ds: d.datasource, id: d.id, seq: op.seq }).catch(() => {});
      return undefined;
    }
    if (op.op === 'delete') {
      if (op.skipped) {
        const s = op.skipped;
        return this.append({
          k: 'skipped',
          ds: op.datasource,
          id: op.id,
          seq: op.seq,
          msg: s.message,
          lm: s.last_modified,
          at: s.received_at,
        });
      }
      return this.entries.has(keyOf(op.datasource, op.id))
        ? this.append({ k: 'clear', ds: op.datasource, id: op.id, seq: op.seq })
        : undefined;
    }
    return this.dropDatasource(op.datasource, op.seq);
  }

  /** Drop the entries of a datasource; undefined when it has none. */
  dropDatasource(datasource: string, seq: number): Promise<void> | undefined {
    for (const e of this.entries.values())
      if (e.datasource === datasource) return this.append({ k: 'drop', ds: datasource, seq });
    return undefined;
  }

  /** Forget an entry without a record (it is superseded by the committed index, which the reader checks too). */
  forget(datasource: string, id: string): void {
    this.entries.delete(keyOf(datasource, id));
  }

  async close(): Promise<void> {
    while (this.compacting) await this.compacting;
    await this.writer.close();
  }

  private append(r: StatusRecord): Promise<void> {
    applyRecord(this.entries, r);
    const done = this.writer.append(encodeRecord(r));
    this.records++;
    this.maybeCompact();
    return done;
  }

  private maybeCompact(): void {
    if (!this.compacting && this.records >= this.compactAt && this.entries.size * 2 < this.records) this.compact();
  }

  /** Rewrite the file with the live entries (see the module header); failures are logged, never thrown. */
  private compact(): void {
    const live = [...this.entries.values()];
    const content = encodeFrames(live.map((e) => encodeRecord(setRecord(e))));
    const old = this.writer;
    const recordsBefore = this.records - live.length;
    const { log } = this.options;
    const task = (async () => {
      try {
        await old.close();
        if (old.failed) throw old.failed;
        await replaceFileDurably(this.path, content);
        this.compactAt = this.minRecords;
        log.info('document statuses compacted', { file: this.path, live: live.length });
      } catch (err) {
        // The old file is intact (appends continue after its content); retry after further records.
        this.records = recordsBefore + this.records;
        this.compactAt = this.records + this.minRecords;
        log.error('document status compaction failed; retried after further records', { file: this.path, error: err });
      } finally {
        this.compacting = null;
      }
      // Records appended meanwhile may have superseded most of the new content already.
      this.maybeCompact();
    })();
    this.compacting = task;
    this.records = live.length;
    this.writer = new RecordLogWriter(this.path, { size: content.byteLength, after: task });
  }
}
