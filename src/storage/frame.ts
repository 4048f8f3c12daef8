/**
 * Record framing of every durable file under DATA_DIR/state: each record is
 * `[u32 LE payload length][u64 LE xxh64(payload)][payload]`. `encodeFrames`
 * is the writer side; `scanFrames` the reader side, which returns the records
 * of the longest valid prefix and says why the rest (if any) was rejected:
 * `torn` (a frame that runs past the end of the data, the usual result of a
 * process killed mid-write) or `corrupt` (checksum mismatch or implausible
 * length). Pure functions, no I/O.
 */
import { xxh64 } from '@node-rs/xxhash';

export const FRAME_HEADER_BYTES = 12;
/** Upper bound of one payload; a larger length field is treated as corruption. */
export const MAX_RECORD_BYTES = 1024 * 1024 * 1024;

export type TailProblem = 'torn' | 'corrupt';

export interface ScanResult {
  records: Uint8Array[];
  /** Bytes of the valid prefix (where the next record would start). */
  goodBytes: number;
  /** Why bytes after `goodBytes` were rejected; undefined when the data ends cleanly. */
  problem?: TailProblem;
}

/** Frame one or more payloads into one contiguous buffer (one write). */
export function encodeFrames(payloads: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of payloads) {
    if (p.byteLength > MAX_RECORD_BYTES)
      throw new RangeError(`record of ${p.byteLength} bytes exceeds ${MAX_RECORD_BYTES}`);
    total += FRAME_HEADER_BYTES + p.byteLength;
  }
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of payloads) {
    view.setUint32(at, p.byteLength, true);
    view.setBigUint64(at + 4, xxh64(p), true);
    out.set(p, at + FRAME_HEADER_BYTES);
    at += FRAME_HEADER_BYTES + p.byteLength;
  }
  return out;
}

/** Read records from the start of `data` until its end or the first bad frame. */
export function scanFrames(data: Uint8Array): ScanResult {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const records: Uint8Array[] = [];
  let at = 0;
  while (at < data.byteLength) {
    if (data.byteLength - at < FRAME_HEADER_BYTES) return { records, goodBytes: at, problem: 'torn' };
    const length = view.getUint32(at, true);
    if (length > MAX_RECORD_BYTES) return { records, goodBytes: at, problem: 'corrupt' };
    const end = at + FRAME_HEADER_BYTES + length;
    if (end > data.byteLength) return { records, goodBytes: at, problem: 'torn' };
    const payload = data.subarray(at + FRAME_HEADER_BYTES, end);
    if (xxh64(payload) !== view.getBigUint64(at + 4, true)) return { records, goodBytes: at, problem: 'corrupt' };
    records.push(payload);
    at = end;
  }
  return { records, goodBytes: at };
}
