/**
 * Near-duplicate lookup over 64-bit SimHash signatures (SegmentReader.signature).
 *
 * Two docs are near-duplicates when their signatures differ in at most
 * MAX_DUPLICATE_DISTANCE (3) bits. By the pigeonhole principle such a pair
 * agrees exactly on at least one of four 16-bit bands, so a per-segment band
 * index (counting-sorted doc lists per band value) finds every candidate
 * exactly without scanning the segment. The index is built lazily per
 * SegmentReader object (segments are immutable; deletions are checked at lookup).
 * Next to each band's doc list it keeps the docs' other signature half (the
 * 32 bits without the band) in the same order: a candidate whose half alone
 * differs in more bits than allowed is passed over without reading its
 * signature (band buckets hold hundreds of docs; reading each doc's signature
 * at random was most of a lookup's time).
 */
import type { SegmentReader } from '../segment/types.ts';

export const MAX_DUPLICATE_DISTANCE = 3;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function splitSignature(sig: bigint): [hi: number, lo: number] {
  return [Number((sig >> 32n) & 0xffffffffn), Number(sig & 0xffffffffn)];
}

/** Bits in which two signatures differ. */
export function hammingDistance(a: bigint, b: bigint): number {
  const [ah, al] = splitSignature(a);
  const [bh, bl] = splitSignature(b);
  return popcount32((ah ^ bh) >>> 0) + popcount32((al ^ bl) >>> 0);
}

/** hammingDistance of two signatures given as their high and low 32-bit halves. */
export function halvesDistance(ah: number, al: number, bh: number, bl: number): number {
  return popcount32((ah ^ bh) >>> 0) + popcount32((al ^ bl) >>> 0);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The signatures of `reader` as 32-bit words (low half of doc d at 2d, high half at 2d + 1),
 * viewing its signature column without copying; null when the reader does not expose the
 * column (or on a big-endian platform): use splitSignature(reader.signature(d)) instead.
 */
export function signatureWords(reader: SegmentReader): Uint32Array | null {
  const sigs = LITTLE_ENDIAN ? reader.signatures?.() : undefined;
  return sigs ? new Uint32Array(sigs.buffer, sigs.byteOffset, sigs.length * 2) : null;
}

interface BandIndex {
  /** Signatures as 32-bit words: low half of doc d at 2d, high half at 2d + 1. */
  words: Uint32Array;
  /** Per band: start offsets (65537) into docs, and docs ordered by band value. */
  starts: Uint32Array[];
  docs: Int32Array[];
  /** Per band: the other half of each listed doc's signature (high half for bands 0-1, low for 2-3), in `docs` order. */
  others: Uint32Array[];
}

/** Keyed by the segment's shared core when the reader is a per-snapshot view of one, else by the reader. */
const indexes = new WeakMap<object, BandIndex>();

function owner(reader: SegmentReader): object {
  const core = (reader as { core?: unknown }).core;
  return typeof core === 'object' && core !== null ? core : reader;
}

/** 16-bit band `band` (0-3: low half first) of a signature given as its halves. */
export function bandValue(hi: number, lo: number, band: number): number {
  switch (band) {
    case 0:
      return lo & 0xffff;
    case 1:
      return lo >>> 16;
    case 2:
      return hi & 0xffff;
    default:
      return hi >>> 16;
  }
}

function bandIndex(reader: SegmentReader): BandIndex {
  let idx = indexes.get(owner(reader));
  if (idx) return idx;
  const n = reader.maxDoc;
  let words = signatureWords(reader);
  if (!words) {
    words = new Uint32Array(2 * n);
    for (let d = 0; d < n; d++) {
      const [h, l] = splitSignature(reader.signature(d));
      words[2 * d] = l;
      words[2 * d + 1] = h;
    }
  }
  const starts: Uint32Array[] = [];
  const docs: Int32Array[] = [];
  const others: Uint32Array[] = [];
  for (let band = 0; band < 4; band++) {
    const start = new Uint32Array(65537);
    for (let d = 0; d < n; d++) start[bandValue(words[2 * d + 1], words[2 * d], band) + 1]++;
    for (let v = 0; v < 65536; v++) start[v + 1] += start[v];
    const fill = start.slice(0, 65536);
    const order = new Int32Array(n);
    for (let d = 0; d < n; d++) order[fill[bandValue(words[2 * d + 1], words[2 * d], band)]++] = d;
    const other = new Uint32Array(n);
    const half = band < 2 ? 1 : 0;
    for (let i = 0; i < n; i++) other[i] = words[2 * order[i] + half];
    starts.push(start);
    docs.push(order);
    others.push(other);
  }
  idx = { words, starts, docs, others };
  indexes.set(owner(reader), idx);
  return idx;
}

/** Docs of `reader` (deleted included; caller filters) within `maxDistance` bits of `sig`, with their distance. */
export function nearDuplicatesIn(
  reader: SegmentReader,
  sig: bigint,
  maxDistance = MAX_DUPLICATE_DISTANCE,
): { doc: number; distance: number }[] {
  const idx = bandIndex(reader);
  const [h, l] = splitSignature(sig);
  const want = [bandValue(h, l, 0), bandValue(h, l, 1), bandValue(h, l, 2), bandValue(h, l, 3)];
  const out: { doc: number; distance: number }[] = [];
  for (let band = 0; band < 4; band++) {
    const v = want[band];
    const s = idx.starts[band][v];
    const e = idx.starts[band][v + 1];
    const docs = idx.docs[band];
    const other = idx.others[band];
    const half = band < 2 ? h : l;
    const words = idx.words;
    for (let i = s; i < e; i++) {
      // the other half's bits alone bound the distance from below
      if (popcount32((other[i] ^ half) >>> 0) > maxDistance) continue;
      const d = docs[i];
      const dl = words[2 * d];
      const dh = words[2 * d + 1];
      const dist = popcount32((dh ^ h) >>> 0) + popcount32((dl ^ l) >>> 0);
      if (dist > maxDistance) continue;
      // Seen already under an earlier band with the same value.
      let seen = false;
      for (let b = 0; b < band && !seen; b++) seen = bandValue(dh, dl, b) === want[b];
      if (!seen) out.push({ doc: d, distance: dist });
    }
  }
  return out.length > 1 ? out.sort((a, b) => a.distance - b.distance || a.doc - b.doc) : out;
}
