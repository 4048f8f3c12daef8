/**
 * Deletion files: one write-once file per (segment, deletion generation) holding the
 * segment's deletion bitset (bit set = deleted) as of a commit.
 * Layout: "EDL1", u32 maxDoc, u32 delCount, bitset (ceil(maxDoc/8) bytes), u64 xxh64 of all before.
 */
import { xxh64 } from '@node-rs/xxhash';
import { EngineError } from '../errors.ts';

const MAGIC = [0x45, 0x44, 0x4c, 0x31];

export function deletionFileName(segmentId: string, gen: number): string {
  return `${segmentId}_${gen.toString(36)}.del`;
}

export function encodeDeletions(bits: Uint8Array, maxDoc: number, delCount: number): Uint8Array {
  const nbytes = (maxDoc + 7) >>> 3;
  const out = new Uint8Array(12 + nbytes + 8);
  out.set(MAGIC, 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(4, maxDoc, true);
  dv.setUint32(8, delCount, true);
  out.set(bits.subarray(0, nbytes), 12);
  dv.setBigUint64(12 + nbytes, xxh64(out.subarray(0, 12 + nbytes)), true);
  return out;
}

export function decodeDeletions(
  data: Uint8Array,
  maxDoc: number,
  name: string,
): { bits: Uint8Array; delCount: number } {
  const nbytes = (maxDoc + 7) >>> 3;
  const bad = (why: string) => new EngineError('CORRUPT_INDEX', `deletion file ${name}: ${why}`);
  if (data.length !== 12 + nbytes + 8) throw bad('wrong size');
  for (let i = 0; i < 4; i++) if (data[i] !== MAGIC[i]) throw bad('bad magic');
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (dv.getUint32(4, true) !== maxDoc) throw bad('maxDoc mismatch');
  if (xxh64(data.subarray(0, 12 + nbytes)) !== dv.getBigUint64(12 + nbytes, true)) throw bad('checksum mismatch');
  return { bits: data.slice(12, 12 + nbytes), delCount: dv.getUint32(8, true) };
}

/** Number of set bits in the first maxDoc bits. */
export function countDeleted(bits: Uint8Array, maxDoc: number): number {
  let c = 0;
  for (let d = 0; d < maxDoc; d++) if (bits[d >>> 3] & (1 << (d & 7))) c++;
  return c;
}
