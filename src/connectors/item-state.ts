/**
 * A connector's item state: for every key it has handled, the version its document was pushed
 * with (or that failed), and the connector's memo. It decides what a run skips (same version,
 * not failed) and what it deletes (keys a complete run did not see).
 *
 * File `DATA_DIR/connectors/<id>/items.bin`, framed records (src/storage/record-log.ts), each the
 * JSON of one of
 *   {h: {ds, inc, cfg}}              header: datasource name and incarnation (its created_at), settings digest
 *   {s: [[key, version, memo, failed], ...]}   entries set
 *   {d: [key, ...]}                  entries removed
 * Records are appended and fsynced; a torn tail is cut at open. An entry is written only once its
 * outcome is final (after the commit that holds the document, see runner.ts), so a run killed at
 * any point leaves entries that are true: anything unrecorded is pushed again next run and answered
 * `already_indexed` by the pipeline when it had arrived.
 *
 * A header naming another datasource or incarnation (the datasource was deleted and created again,
 * or the connector now targets another one) starts the state empty; another settings digest keeps
 * the keys and memos but marks every entry to be retried, so each item is read and pushed again.
 * The file is compacted at open when it mentions keys at least twice as often as it has live entries.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { encodeFrames } from '../storage/frame.ts';
import { RecordLogWriter, replaceFileDurably, replayFile } from '../storage/record-log.ts';
import type { Json, PreviousItem } from './types.ts';

export interface ItemEntry {
  /** Version pushed or attempted ('' when none is known). */
  v: string;
  m?: Json;
  /** The last attempt failed, or the settings changed since: read and push the item again. */
  f: boolean;
  /** Number of the run that last saw the key (in memory only). */
  seen: number;
}

/** An entry to record. */
export interface ItemUpdate {
  key: string;
  version: string;
  memo?: Json;
  failed: boolean;
  seen: number;
}

export interface Incarnation {
  ds: string;
  inc: string;
  cfg: string;
}

type Rec = { h: Incarnation } | { s: [string, string, Json | null, 0 | 1][] } | { d: string[] };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ENTRIES_PER_RECORD = 5000;

export class ItemState {
  private constructor(
    private readonly entries: Map<string, ItemEntry>,
    private readonly writer: RecordLogWriter,
  ) {}

  static async open(dir: string, header: Incarnation, log: Logger): Promise<ItemState> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'items.bin');
    const replayed = await replayFile(path, log);
    const entries = new Map<string, ItemEntry>();
    let found: Incarnation | undefined;
    let mentions = 0;
    for (const raw of replayed.records) {
      const rec = JSON.parse(decoder.decode(raw)) as Rec;
      if ('h' in rec) found = rec.h;
      else if ('s' in rec) for (const [k, v, m, f] of rec.s) entries.set(k, entry(v, m, f === 1));
      else for (const k of rec.d) entries.delete(k);
      mentions += 'h' in rec ? 1 : 's' in rec ? rec.s.length : rec.d.length;
    }
    if (found && (found.ds !== header.ds || found.inc !== header.inc)) entries.clear();
    else if (found && found.cfg !== header.cfg) for (const e of entries.values()) e.f = true;
    const same = found?.ds === header.ds && found.inc === header.inc && found.cfg === header.cfg;
    let size = replayed.size;
    if (!same || mentions >= 2 * entries.size + 1000) {
      const bytes = encodeFrames(snapshotRecords(header, entries).map((r) => encoder.encode(JSON.stringify(r))));
      await replaceFileDurably(path, bytes);
      size = bytes.byteLength;
    }
    return new ItemState(entries, new RecordLogWriter(path, { size }));
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): ItemEntry | undefined {
    return this.entries.get(key);
  }

  /** The connector's view of a key. */
  previous(key: string): PreviousItem | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    return e.m === undefined ? { version: e.v, failed: e.f } : { version: e.v, memo: e.m, failed: e.f };
  }

  /** Record entries (memory at once, the file durably). */
  set(items: readonly ItemUpdate[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    const rec: Rec = { s: [] };
    for (const it of items) {
      this.entries.set(it.key, { ...entry(it.version, it.memo ?? null, it.failed), seen: it.seen });
      rec.s.push([it.key, it.version, it.memo ?? null, it.failed ? 1 : 0]);
    }
    return this.writer.append(encoder.encode(JSON.stringify(rec)));
  }

  delete(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return Promise.resolve();
    for (const k of keys) this.entries.delete(k);
    return this.writer.append(encoder.encode(JSON.stringify({ d: [...keys] } satisfies Rec)));
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** Keys not seen by run `run`. */
  unseen(run: number): string[] {
    const out: string[] = [];
    for (const [k, e] of this.entries) if (e.seen !== run) out.push(k);
    return out;
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}

function entry(v: string, m: Json | null | undefined, f: boolean): ItemEntry {
  return m === null || m === undefined ? { v, f, seen: 0 } : { v, m, f, seen: 0 };
}

function snapshotRecords(header: Incarnation, entries: Map<string, ItemEntry>): Rec[] {
  const out: Rec[] = [{ h: header }];
  let batch: [string, string, Json | null, 0 | 1][] = [];
  for (const [k, e] of entries) {
    batch.push([k, e.v, e.m ?? null, e.f ? 1 : 0]);
    if (batch.length === ENTRIES_PER_RECORD) {
      out.push({ s: batch });
      batch = [];
    }
  }
  if (batch.length > 0) out.push({ s: batch });
  return out;
}
