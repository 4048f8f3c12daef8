/**
 * The files of upload sessions (sessions.ts): `DATA_DIR/uploads/<upload_id>.bin`, framed records
 * (src/storage/record-log.ts), each the JSON of one of
 *   {k: "start", ds, inc, at}   the session's datasource, its incarnation (created_at) and start time
 *   {k: "seen", h: [hex, ...]}  the xxh64 hashes of the ids one page named
 *   {k: "end", state, at}       the session ended (the file is removed right after)
 * At start the files of open sessions are read back and the others removed.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { xxh64 } from '@node-rs/xxhash';
import type { Logger } from '../log.ts';
import { replayFile } from '../storage/record-log.ts';

export type SessionRecord =
  | { k: 'start'; ds: string; inc: string; at: string }
  | { k: 'seen'; h: string[] }
  | { k: 'end'; state: 'finished' | 'abandoned'; at: string };

export const UPLOAD_ID = /^up_[0-9a-f]{24}$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeRecord = (rec: SessionRecord): Uint8Array => encoder.encode(JSON.stringify(rec));

/** The hash an id is recorded as. */
export const idHash = (id: string): bigint => xxh64(id);

/** An open session as its file holds it. */
export interface StoredSession {
  id: string;
  path: string;
  /** Bytes of the file (where appends continue). */
  size: number;
  start: Extract<SessionRecord, { k: 'start' }>;
  pages: number;
  seen: number;
}

/** The open sessions of `dir`; files of ended sessions (or without a start record) are removed. */
export async function loadSessions(dir: string, log: Logger): Promise<StoredSession[]> {
  const out: StoredSession[] = [];
  for (const name of await readdir(dir)) {
    const id = name.replace(/\.bin$/, '');
    if (!UPLOAD_ID.test(id) || !name.endsWith('.bin')) continue;
    const path = join(dir, name);
    const replayed = await replayFile(path, log);
    const recs = replayed.records.map((r) => JSON.parse(decoder.decode(r)) as SessionRecord);
    const start = recs[0]?.k === 'start' ? recs[0] : undefined;
    if (!start || recs.some((r) => r.k === 'end')) {
      await rm(path, { force: true });
      continue;
    }
    const seen = recs.filter((r): r is Extract<SessionRecord, { k: 'seen' }> => r.k === 'seen');
    out.push({
      id,
      path,
      size: replayed.size,
      start,
      pages: seen.length,
      seen: seen.reduce((n, r) => n + r.h.length, 0),
    });
  }
  return out;
}

/** Every id hash a session's pages named, sorted (8 bytes per id). */
export async function seenHashes(path: string, log: Logger): Promise<BigUint64Array> {
  const replayed = await replayFile(path, log);
  const hashes: bigint[] = [];
  for (const raw of replayed.records) {
    const rec = JSON.parse(decoder.decode(raw)) as SessionRecord;
    if (rec.k === 'seen') for (const h of rec.h) hashes.push(BigInt(`0x${h}`));
  }
  return BigUint64Array.from(hashes).sort();
}

/** Whether the sorted `hashes` hold `h` (binary search). */
export function containsHash(hashes: BigUint64Array, h: bigint): boolean {
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hashes[mid] < h) lo = mid + 1;
    else hi = mid;
  }
  return lo < hashes.length && hashes[lo] === h;
}
