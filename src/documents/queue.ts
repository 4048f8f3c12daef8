/**
 * The durable document queue: an append-only log of indexing operations
 * (upsert, delete, drop of a datasource), each with a sequence number. An
 * operation is acknowledged to the client only after its record is written and
 * fsynced (group commit). The engine's commit records the highest sequence
 * number it contains, so after a crash exactly the operations after it are
 * replayed: every acknowledged document is indexed once, none twice.
 *
 * Files: `<dir>/queue-<first seq>.bin`, framed records (length + xxhash64).
 * A record is the JSON of one operation, or of an array of operations with
 * consecutive sequence numbers appended together (one push request). An
 * upsert is stored either with its `doc`, or as `{op, seq, meta, item}`: the
 * pushed item's JSON exactly as received plus what was decided for it (tokens,
 * sub binding, typed properties, time), from which `queuedDocument` rebuilds
 * the same document on replay. A binary stored in a blob file (blobs.ts) is
 * named by the document (`binary_blob`, or `meta.blob` beside a raw item, whose
 * `binary_base64` is then only the placeholder it was read as).
 * A new file is started when the current one passes `rotateBytes`; a whole
 * file is deleted once every operation in it is committed to the engine.
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import type { BlobRef } from './blobs.ts';
import { fsyncDir, RecordLogWriter, replayFile } from '../storage/record-log.ts';

export interface QueuedDocument {
  datasource: string;
  id: string;
  title: string;
  mime_type: string | null;
  text_content: string | null;
  binary_base64: string | null;
  /** The decoded binary stored in a blob file (then `binary_base64` is null); absent otherwise. */
  binary_blob?: BlobRef | null;
  file_type: string;
  path_preview: string | null;
  path: string | null;
  author: string | null;
  last_modified: string | null;
  sub: string | null;
  sub_sub: string | null;
  /** Incarnation ids of `sub` / `sub_sub` when the push resolved them (SubRecord.id); absent in older records. */
  sub_id?: string | null;
  sub_sub_id?: string | null;
  tokens: string[];
  properties: { name: string; value: string | number | boolean; type: string; searchable: boolean }[];
  /** Epoch ms when the push was acknowledged. */
  received_at: number;
  /** Source category (search `data_source`) of a connector's document; absent: `other` (pushed). */
  category?: string;
}

/** What the push decided for a document, beyond the pushed item's own fields (and where its binary is stored). */
export type DocumentMeta = Pick<
  QueuedDocument,
  'tokens' | 'sub' | 'sub_sub' | 'sub_id' | 'sub_sub_id' | 'properties' | 'received_at' | 'category'
> & { blob?: BlobRef };

/** The fields of a validated pushed item that a queued document takes over. */
export interface PushedItem {
  datasource: string;
  id: string;
  title?: string;
  body?: { mime_type: string; text_content?: string; binary_base64?: string };
  file_type: string;
  path_preview?: string;
  path?: string;
  author?: string;
  last_modified?: string;
}

/** The queued document of a validated pushed item (at push time and on replay of a raw item). */
export function queuedDocument(item: PushedItem, meta: DocumentMeta): QueuedDocument {
  const doc: QueuedDocument = {
    datasource: item.datasource,
    id: item.id,
    title: item.title ?? '',
    mime_type: item.body?.mime_type ?? null,
    text_content: item.body?.text_content ?? null,
    binary_base64: meta.blob ? null : (item.body?.binary_base64 ?? null),
    file_type: item.file_type,
    path_preview: item.path_preview ?? null,
    path: item.path ?? null,
    author: item.author ?? null,
    last_modified: item.last_modified ?? null,
    sub: meta.sub,
    sub_sub: meta.sub_sub,
    sub_id: meta.sub_id ?? null,
    sub_sub_id: meta.sub_sub_id ?? null,
    tokens: meta.tokens,
    properties: meta.properties,
    received_at: meta.received_at,
  };
  if (meta.category) doc.category = meta.category;
  if (meta.blob) doc.binary_blob = meta.blob;
  return doc;
}

/** An upsert as stored with the raw item (see the module header). */
interface RawUpsertRecord {
  op: 'upsert';
  seq: number;
  meta: DocumentMeta;
  item: PushedItem;
}

/** `op` with its sequence number (same keys, in the same order, as `{ ...op, seq }`). */
function withSeq(op: NewQueueOp, seq: number): QueueOp {
  if (op.op === 'upsert') return { op: 'upsert', doc: op.doc, seq };
  return { ...op, seq } as QueueOp;
}

/** Whether two documents' metas serialize alike (conservative: only documents without properties). */
function sameMeta(a: DocumentMeta, b: DocumentMeta): boolean {
  if (a.received_at !== b.received_at || a.sub !== b.sub || a.sub_sub !== b.sub_sub) return false;
  if (a.category !== b.category) return false;
  if ((a.sub_id ?? null) !== (b.sub_id ?? null) || (a.sub_sub_id ?? null) !== (b.sub_sub_id ?? null)) return false;
  if (a.properties.length !== 0 || b.properties.length !== 0 || a.blob || b.blob) return false;
  const x = a.tokens;
  const y = b.tokens;
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function fromRecord(rec: QueueOp | RawUpsertRecord): QueueOp {
  if (rec.op === 'upsert' && 'item' in rec)
    return { op: 'upsert', seq: rec.seq, doc: queuedDocument(rec.item, rec.meta) };
  return rec as QueueOp;
}

/** On a delete: the pushed version was skipped (the delete removes any older version); its status. */
export interface SkippedVersion {
  message: string;
  last_modified: string | null;
  received_at: number;
}

export type QueueOp =
  | { op: 'upsert'; seq: number; doc: QueuedDocument }
  | { op: 'delete'; seq: number; datasource: string; id: string; skipped?: SkippedVersion }
  | { op: 'drop_datasource'; seq: number; datasource: string };

/** An operation before a sequence number is assigned. */
export type NewQueueOp = QueueOp extends infer T ? (T extends QueueOp ? Omit<T, 'seq'> : never) : never;

const FILE = /^queue-(\d{16})\.bin$/;
const fileName = (firstSeq: number) => `queue-${String(firstSeq).padStart(16, '0')}.bin`;

interface QueueFile {
  firstSeq: number;
  lastSeq: number;
  path: string;
}

export class DocumentQueue {
  private files: QueueFile[] = [];
  private writer: RecordLogWriter | null = null;
  private nextSeq: number;
  private readonly encoder = new TextEncoder();

  private constructor(
    private readonly dir: string,
    private readonly log: Logger,
    private readonly rotateBytes: number,
    lastSeq: number,
  ) {
    this.nextSeq = lastSeq + 1;
  }

  /** Open the queue directory and return every operation still on disk, in sequence order. */
  static async open(
    dir: string,
    log: Logger,
    options: { rotateBytes?: number; minSeq?: number } = {},
  ): Promise<{ queue: DocumentQueue; ops: QueueOp[] }> {
    await mkdir(dir, { recursive: true });
    const names = (await readdir(dir)).filter((n) => FILE.test(n)).sort();
    const ops: QueueOp[] = [];
    const files: QueueFile[] = [];
    const decoder = new TextDecoder();
    let lastSize = 0;
    for (const name of names) {
      const path = join(dir, name);
      const replay = await replayFile(path, log);
      const firstSeq = Number(FILE.exec(name)![1]);
      let lastSeq = firstSeq - 1;
      for (const rec of replay.records) {
        const parsed = JSON.parse(decoder.decode(rec)) as QueueOp | RawUpsertRecord | (QueueOp | RawUpsertRecord)[];
        for (const r of Array.isArray(parsed) ? parsed : [parsed]) {
          const op = fromRecord(r);
          ops.push(op);
          lastSeq = op.seq;
        }
      }
      files.push({ firstSeq, lastSeq, path });
      lastSize = replay.size;
    }
    const lastSeq = Math.max(
      options.minSeq ?? 0,
      ops.length ? ops[ops.length - 1].seq : 0,
      files.length ? files[files.length - 1].lastSeq : 0,
    );
    const queue = new DocumentQueue(dir, log, options.rotateBytes ?? 64 * 1024 * 1024, lastSeq);
    queue.files = files;
    const last = files[files.length - 1];
    if (last && lastSize < queue.rotateBytes) queue.writer = new RecordLogWriter(last.path, { size: lastSize });
    return { queue, ops };
  }

  /** The sequence number the next operation gets. */
  get next(): number {
    return this.nextSeq;
  }

  /**
   * Assign the next sequence number and append; `durable` resolves once the
   * record is fsynced. Sequence numbers follow call order.
   */
  append(op: NewQueueOp): { seq: number; durable: Promise<void>; op: QueueOp } {
    const seq = this.nextSeq++;
    const full = { ...op, seq } as QueueOp;
    const writer = this.currentWriter(seq);
    const durable = writer.append(this.encoder.encode(JSON.stringify(full)));
    this.files[this.files.length - 1].lastSeq = seq;
    return { seq, durable, op: full };
  }

  /**
   * Assign consecutive sequence numbers to `ops` and append them as one record (one write, one
   * fsync shared with concurrent appends); `durable` resolves once the record is fsynced.
   * `raw[i]`, when given for an upsert, is the JSON of the pushed item the document was made
   * from (`queuedDocument(JSON.parse(raw[i]), <its meta>)` equals `ops[i].doc`); it is stored
   * as is instead of serializing the document.
   */
  appendMany(
    ops: readonly NewQueueOp[],
    raw?: readonly (Uint8Array | undefined)[],
  ): { seqs: number[]; durable: Promise<void>; ops: QueueOp[] } {
    if (ops.length === 0) return { seqs: [], durable: Promise.resolve(), ops: [] };
    const first = this.nextSeq;
    const full = ops.map((op, i) => withSeq(op, first + i));
    this.nextSeq += ops.length;
    const writer = this.currentWriter(first);
    const durable = writer.append(raw ? this.encodeWithRaw(full, raw) : this.encoder.encode(JSON.stringify(full)));
    this.files[this.files.length - 1].lastSeq = this.nextSeq - 1;
    return { seqs: full.map((op) => op.seq), durable, ops: full };
  }

  /** The JSON array of `ops`, upserts with a raw item written as `{op, seq, meta, item: <raw>}`. */
  private encodeWithRaw(ops: readonly QueueOp[], raw: readonly (Uint8Array | undefined)[]): Uint8Array {
    // Text between the raw items; each piece is followed by raw[i] (or by nothing for the last).
    const pieces: string[] = [];
    let text = '[';
    let bound = 0;
    let metaOf: DocumentMeta | undefined;
    let metaJson = '';
    for (let i = 0; i < ops.length; i++) {
      if (i > 0) text += ',';
      const op = ops[i];
      const item = raw[i];
      if (op.op !== 'upsert' || item === undefined) {
        text += JSON.stringify(op);
        continue;
      }
      const d = op.doc;
      // The documents of one push usually share their meta (same time, permissions, no properties).
      const docMeta: DocumentMeta = d.binary_blob ? { ...d, blob: d.binary_blob } : d;
      if (metaOf === undefined || !sameMeta(metaOf, docMeta)) {
        metaOf = docMeta;
        const meta: DocumentMeta = {
          tokens: d.tokens,
          sub: d.sub,
          sub_sub: d.sub_sub,
          properties: d.properties,
          received_at: d.received_at,
        };
        if (d.sub_id) meta.sub_id = d.sub_id;
        if (d.sub_sub_id) meta.sub_sub_id = d.sub_sub_id;
        if (d.category) meta.category = d.category;
        if (d.binary_blob) meta.blob = d.binary_blob;
        metaJson = JSON.stringify(meta);
      }
      text += `{"op":"upsert","seq":${op.seq},"meta":${metaJson},"item":`;
      pieces.push(text);
      bound += text.length * 3 + item.byteLength;
      text = '}';
    }
    text += ']';
    pieces.push(text);
    bound += text.length * 3;
    const out = new Uint8Array(bound);
    let at = 0;
    let r = 0;
    for (let p = 0; p < pieces.length; p++) {
      at += this.encoder.encodeInto(pieces[p], out.subarray(at)).written;
      if (p === pieces.length - 1) break;
      while (raw[r] === undefined || ops[r].op !== 'upsert') r++;
      out.set(raw[r]!, at);
      at += raw[r]!.byteLength;
      r++;
    }
    return out.subarray(0, at);
  }

  /** Delete every file whose operations are all at or below `seq` (committed to the engine). */
  async releaseThrough(seq: number): Promise<void> {
    const current = this.writer ? this.files[this.files.length - 1] : undefined;
    if (current && current.lastSeq <= seq) {
      // Fully drained: later appends start a new file, so the current one can go too.
      const w = this.writer!;
      this.writer = null;
      await w.close();
    }
    const drop = this.files.filter(
      (f) => f.lastSeq <= seq && (f !== this.files[this.files.length - 1] || this.writer === null),
    );
    if (drop.length === 0) return;
    this.files = this.files.filter((f) => !drop.includes(f));
    for (const f of drop) {
      try {
        await unlink(f.path);
      } catch (err) {
        this.log.warn('could not remove a drained queue file', { file: f.path, error: err });
      }
    }
    await fsyncDir(this.dir);
  }

  /** Files currently on disk (diagnostics and tests). */
  get fileCount(): number {
    return this.files.length;
  }

  async close(): Promise<void> {
    await this.writer?.close();
    this.writer = null;
  }

  private currentWriter(seq: number): RecordLogWriter {
    if (this.writer && this.writer.size < this.rotateBytes) return this.writer;
    const previous = this.writer;
    const path = join(this.dir, fileName(seq));
    // The new file's first write waits until everything before it is durable, so order holds across files.
    this.writer = new RecordLogWriter(path, {
      after: previous ? previous.drained().then(() => previous.close()) : undefined,
    });
    this.files.push({ firstSeq: seq, lastSeq: seq - 1, path });
    return this.writer;
  }
}
