/**
 * Commit log: an append-only file of framed commit records.
 *
 * Frame: u32 payloadLength (LE), u64 xxh64(payload) (LE), payload (UTF-8 JSON CommitPoint).
 * A reader takes the records in order and stops at the first frame that is incomplete or
 * fails its checksum (a torn tail left by a crash); the last good record is the commit point.
 *
 * Logs are rotated: when a log grows past ROTATE_BYTES the next record starts a new log file
 * (higher number) whose first record is complete; older logs are deleted afterwards.
 */
import { xxh64 } from '@node-rs/xxhash';
import { encodeUtf8 } from '../util/bytes.ts';

export interface SegmentEntry {
  id: string;
  maxDoc: number;
  /** Deletion generation (0 = no deletions file). */
  delGen: number;
  delCount: number;
  /** Analysis version the segment's terms were produced with (absent: 1; see ANALYSIS_VERSION). */
  analysis?: number;
}

export interface CommitPoint {
  generation: number;
  committedAt: number;
  /** Next free segment number (names are never reused). */
  nextSegment: number;
  segments: SegmentEntry[];
  docCount: number;
  /** Caller data recorded atomically with the commit (e.g. the last applied queue sequence number). */
  userData?: Record<string, string | number>;
}

export const ROTATE_BYTES = 4 * 1024 * 1024;
const LOG = /^commits_(\d{10})\.log$/;

export function logFileName(n: number): string {
  return `commits_${String(n).padStart(10, '0')}.log`;
}

export function logNumber(name: string): number {
  const m = LOG.exec(name);
  return m ? Number(m[1]) : -1;
}

export function encodeRecord(point: CommitPoint): Uint8Array {
  const payload = encodeUtf8(JSON.stringify(point));
  const out = new Uint8Array(12 + payload.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, payload.length, true);
  dv.setBigUint64(4, xxh64(payload), true);
  out.set(payload, 12);
  return out;
}

/** All complete, valid records of a log, in order (a torn or corrupt tail ends the list). */
export function decodeRecords(data: Uint8Array): CommitPoint[] {
  const out: CommitPoint[] = [];
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let pos = 0;
  while (pos + 12 <= data.length) {
    const len = dv.getUint32(pos, true);
    const sum = dv.getBigUint64(pos + 4, true);
    if (pos + 12 + len > data.length) break;
    const payload = data.subarray(pos + 12, pos + 12 + len);
    if (xxh64(payload) !== sum) break;
    let point: CommitPoint;
    try {
      point = JSON.parse(new TextDecoder().decode(payload)) as CommitPoint;
    } catch {
      break;
    }
    if (!point || typeof point.generation !== 'number' || !Array.isArray(point.segments)) break;
    out.push(point);
    pos += 12 + len;
  }
  return out;
}
