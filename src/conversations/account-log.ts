/**
 * One account's saved conversations on disk: `DATA_DIR/conversations/<account
 * id>.log`, an append-only file of framed JSON records (storage/frame.ts):
 *   created   {id, title, at, updated_at?, messages?}   a new conversation (compaction writes these)
 *   messages  {id, from, messages, at}                   keep the first `from` messages, then append
 *   renamed   {id, title, at}
 *   deleted   {id, at}                                    the tombstone
 * `open` replays the file (a torn or corrupt tail is cut off, record-log.ts)
 * into an index that keeps, per conversation, its title, times and where each
 * message is in the file; message texts are read from the file when asked for.
 * `append` resolves after the record is fsynced (RecordLogWriter), then
 * applies it. `compact` rewrites the file with only the live conversations
 * (one `created` record each) crash-safely (temporary file, fsync, rename).
 * The caller serialises all calls on one instance (store.ts).
 */
import { open, readFile, rm } from 'node:fs/promises';
import type { Logger } from '../log.ts';
import { encodeFrames, FRAME_HEADER_BYTES } from '../storage/frame.ts';
import { RecordLogWriter, replaceFileDurably, replayFile } from '../storage/record-log.ts';
import type { Conversation, ConversationSummary, StoredMessage } from './schema.ts';

export type ConversationRecord =
  | { type: 'created'; id: string; title: string; at: string; updated_at?: string; messages?: StoredMessage[] }
  | { type: 'messages'; id: string; from: number; messages: StoredMessage[]; at: string }
  | { type: 'renamed'; id: string; title: string; at: string }
  | { type: 'deleted'; id: string; at: string };

/** Where a record's frame is in the file. */
interface Span {
  offset: number;
  bytes: number;
}

interface Entry {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  head: Span;
  renamed?: Span;
  /** Each message as (record, index in its `messages`). */
  messages: { span: Span; index: number }[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class AccountLog {
  private readonly entries = new Map<string, Entry>();
  private writer: RecordLogWriter;

  private constructor(
    readonly path: string,
    size: number,
  ) {
    this.writer = new RecordLogWriter(path, { size });
  }

  static async open(path: string, log: Logger): Promise<AccountLog> {
    await rm(`${path}.tmp`, { force: true });
    const replayed = await replayFile(path, log);
    const account = new AccountLog(path, replayed.size);
    account.load(replayed.records, log);
    return account;
  }

  private load(payloads: Uint8Array[], log?: Logger): void {
    let offset = 0;
    for (const payload of payloads) {
      const span = { offset, bytes: FRAME_HEADER_BYTES + payload.byteLength };
      offset += span.bytes;
      let record: ConversationRecord;
      try {
        record = JSON.parse(decoder.decode(payload)) as ConversationRecord;
      } catch {
        log?.warn('conversation record skipped: not JSON', { file: this.path, offset: span.offset });
        continue;
      }
      this.apply(record, span);
    }
  }

  private apply(r: ConversationRecord, span: Span): void {
    if (r.type === 'created') {
      const messages = (r.messages ?? []).map((_, index) => ({ span, index }));
      const entry = { id: r.id, title: r.title, created_at: r.at, updated_at: r.updated_at ?? r.at, head: span };
      this.entries.set(r.id, { ...entry, messages });
      return;
    }
    const e = this.entries.get(r.id);
    if (!e) return;
    if (r.type === 'messages') {
      e.messages.length = Math.min(r.from, e.messages.length);
      r.messages.forEach((_, index) => e.messages.push({ span, index }));
      e.updated_at = r.at;
    } else if (r.type === 'renamed') {
      e.title = r.title;
      e.renamed = span;
    } else if (r.type === 'deleted') {
      this.entries.delete(r.id);
    }
  }

  /** Write `record` durably, then apply it; resolves after the fsync. */
  async append(record: ConversationRecord): Promise<void> {
    const payload = encoder.encode(JSON.stringify(record));
    const span = { offset: this.writer.size, bytes: FRAME_HEADER_BYTES + payload.byteLength };
    await this.writer.append(payload);
    this.apply(record, span);
  }

  /** Bytes a record would take in the file. */
  static recordBytes(record: ConversationRecord): number {
    return FRAME_HEADER_BYTES + encoder.encode(JSON.stringify(record)).byteLength;
  }

  get count(): number {
    return this.entries.size;
  }

  summary(id: string): ConversationSummary | undefined {
    const e = this.entries.get(id);
    return e && summaryOf(e);
  }

  list(): ConversationSummary[] {
    return [...this.entries.values()]
      .map(summaryOf)
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.created_at.localeCompare(a.created_at));
  }

  /** The conversation with its messages read from the file, or undefined. */
  async read(id: string): Promise<Conversation | undefined> {
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (e.messages.length === 0) return { ...summaryOf(e), messages: [] };
    const fh = await open(this.path, 'r');
    try {
      return await conversationOf(e, async (span) => {
        const buf = new Uint8Array(span.bytes - FRAME_HEADER_BYTES);
        await fh.read(buf, 0, buf.byteLength, span.offset + FRAME_HEADER_BYTES);
        return buf;
      });
    } finally {
      await fh.close();
    }
  }

  /** Bytes of the records the live conversations still need. */
  liveBytes(): number {
    let total = 0;
    for (const e of this.entries.values()) total += entryBytes(e);
    return total;
  }

  get fileBytes(): number {
    return this.writer.size;
  }

  /** Whether rewriting the file would free enough to be worth it (dead records over half the file). */
  wantsCompaction(minDeadBytes: number): boolean {
    const dead = this.fileBytes - this.liveBytes();
    return dead >= minDeadBytes && dead > this.fileBytes / 2;
  }

  /** Rewrite the file with one `created` record per live conversation; crash-safe. */
  async compact(): Promise<void> {
    await this.writer.close();
    const file = await readFile(this.path);
    const payloadOf = async (span: Span) => file.subarray(span.offset + FRAME_HEADER_BYTES, span.offset + span.bytes);
    const records: Uint8Array[] = [];
    for (const e of this.entries.values()) {
      const c = await conversationOf(e, payloadOf);
      const record: ConversationRecord = {
        type: 'created',
        id: c.id,
        title: c.title,
        at: c.created_at,
        updated_at: c.updated_at,
        messages: c.messages,
      };
      records.push(encoder.encode(JSON.stringify(record)));
    }
    const data = encodeFrames(records);
    await replaceFileDurably(this.path, data);
    this.entries.clear();
    this.load(records);
    this.writer = new RecordLogWriter(this.path, { size: data.byteLength });
  }

  async close(): Promise<void> {
    await this.writer.close();
  }
}

/** The conversation of `e`, reading each record that holds its messages once. */
async function conversationOf(e: Entry, payloadOf: (span: Span) => Promise<Uint8Array>): Promise<Conversation> {
  const records = new Map<number, StoredMessage[]>();
  for (const { span } of e.messages) {
    if (records.has(span.offset)) continue;
    const record = JSON.parse(decoder.decode(await payloadOf(span))) as { messages: StoredMessage[] };
    records.set(span.offset, record.messages);
  }
  return { ...summaryOf(e), messages: e.messages.map(({ span, index }) => records.get(span.offset)![index]) };
}

function summaryOf(e: Entry): ConversationSummary {
  return {
    id: e.id,
    title: e.title,
    created_at: e.created_at,
    updated_at: e.updated_at,
    message_count: e.messages.length,
  };
}

function entryBytes(e: Entry): number {
  let total = e.head.bytes + (e.renamed?.bytes ?? 0);
  const seen = new Set<number>([e.head.offset]);
  for (const { span } of e.messages) {
    if (seen.has(span.offset)) continue;
    seen.add(span.offset);
    total += span.bytes;
  }
  return total;
}
