/**
 * Length lower bounds for BM25F window bounds (combined-scorer.ts): the
 * smallest length per field in a segment, and per filter bitset the smallest
 * weighted doc length among the docs it accepts (per bitset word and per group
 * of 64 words, so a window's minimum is a few lookups), plus the largest freq
 * of a field's window impacts at a doc's norm byte.
 */
import type { Impact, SegmentReader } from '../segment/types.ts';
import { intToByte4, NORM_TABLE } from '../similarity/norms.ts';

/** A text field of the schema with its boost (length weight). */
export interface FieldLengths {
  name: string;
  boost: number;
}

/** Smallest decoded length in a norms array (0 without norms), computed once per array. */
const minLengths = new WeakMap<Uint8Array, number>();
export function minLength(norms: Uint8Array | null): number {
  if (norms === null) return 0;
  let m = minLengths.get(norms);
  if (m === undefined) {
    let b = 255;
    for (let d = 0; d < norms.length && b > 0; d++) if (NORM_TABLE[norms[d]] < NORM_TABLE[b]) b = norms[d];
    m = norms.length > 0 ? NORM_TABLE[b] : 0;
    minLengths.set(norms, m);
  }
  return m;
}

/**
 * Weighted length of every doc of a segment, Σ boosts[i] · NORM_TABLE[norms[i][d]]
 * summed in the given (schema) order from 0 — the BM25F doc length the
 * combined scorer scores with, bit for bit. Computed once per set of norms
 * arrays and boosts, and kept as long as the segment's norms are (8 bytes per doc).
 */
export function docLengths(norms: readonly Uint8Array[], boosts: Float64Array): Float64Array | null {
  if (norms.length === 0) return null;
  let entries = docLengthCache.get(norms[0]);
  if (entries === undefined) docLengthCache.set(norms[0], (entries = []));
  for (const e of entries) {
    if (
      e.norms.length === norms.length &&
      e.norms.every((n, i) => n === norms[i]) &&
      e.boosts.every((b, i) => b === boosts[i])
    )
      return e.lengths;
  }
  const maxDoc = norms[0].length;
  const lengths = new Float64Array(maxDoc);
  for (let i = 0; i < norms.length; i++) {
    const n = norms[i];
    const b = boosts[i];
    for (let d = 0; d < maxDoc; d++) lengths[d] += b * NORM_TABLE[n[d]];
  }
  entries.push({ norms: [...norms], boosts: Float64Array.from(boosts), lengths });
  return lengths;
}

const docLengthCache = new WeakMap<
  Uint8Array,
  { norms: Uint8Array[]; boosts: Float64Array; lengths: Float64Array }[]
>();

/**
 * docLengths of a segment for the schema's text fields (`fields`, with the segment's
 * norms per field, null where it has none), or null when no field has norms.
 * Memoised per fields list (a searcher's) and segment, so the scorers of one search
 * look it up in a map; a new fields list finds the lengths computed before by content.
 */
export function docLengthsOf(
  fields: readonly FieldLengths[],
  norms: readonly (Uint8Array | null)[],
): Float64Array | null {
  let first: Uint8Array | null = null;
  for (let i = 0; i < norms.length && first === null; i++) first = norms[i];
  if (first === null) return null;
  let bySegment = docLengthsByFields.get(fields);
  if (bySegment === undefined) docLengthsByFields.set(fields, (bySegment = new WeakMap()));
  let lengths = bySegment.get(first);
  if (lengths === undefined) {
    const withNorms: Uint8Array[] = [];
    const boosts: number[] = [];
    norms.forEach((n, i) => {
      if (n === null) return;
      withNorms.push(n);
      boosts.push(fields[i].boost);
    });
    lengths = docLengths(withNorms, Float64Array.from(boosts))!;
    bySegment.set(first, lengths);
  }
  return lengths;
}

const docLengthsByFields = new WeakMap<readonly FieldLengths[], WeakMap<Uint8Array, Float64Array>>();

/** What a combined scorer needs of a segment for a fields list (see segmentLengths). */
export interface SegmentLengths {
  /** Per field: the segment's norms (null where it has none, or when the reader has no norms at all). */
  norms: (Uint8Array | null)[];
  /** docLengthsOf(fields, norms), null when the reader has no norms or no field has any. */
  lengths: Float64Array | null;
  /** Per field: boost × the field's minimum length in the segment. */
  mins: Float64Array;
  /** Σ mins, summed in field order from 0. */
  minTotal: number;
}

const segmentLengthsCache = new WeakMap<readonly FieldLengths[], WeakMap<SegmentReader, SegmentLengths>>();

/**
 * The norms, doc lengths and minimum lengths of `reader` for `fields`, computed once per
 * (fields list, segment reader): both are immutable, and the scorers of every query over
 * that list (a searcher's) open on the same segments.
 */
export function segmentLengths(fields: readonly FieldLengths[], reader: SegmentReader): SegmentLengths {
  let byReader = segmentLengthsCache.get(fields);
  if (byReader === undefined) segmentLengthsCache.set(fields, (byReader = new WeakMap()));
  let e = byReader.get(reader);
  if (e === undefined) {
    const norms = fields.map((f) => (reader.norms ? reader.norms(f.name) : null));
    const lengths = reader.norms ? docLengthsOf(fields, norms) : null;
    const mins = Float64Array.from(norms.map((n, i) => fields[i].boost * minLength(n)));
    let minTotal = 0;
    for (let i = 0; i < mins.length; i++) minTotal += mins[i];
    e = { norms, lengths, mins, minTotal };
    byReader.set(reader, e);
  }
  return e;
}

/**
 * Per filter bitset (one segment's): the smallest weighted doc length among
 * the docs it accepts, per bitset word (32 docs) and per group of 64 words,
 * rounded down to float32 (Infinity: no accepted doc). Lower bounds only.
 * Filled a group at a time, when a window first needs it.
 */
export interface FilterMins {
  bits: Uint32Array;
  maxDoc: number;
  length: (doc: number) => number;
  words: Float32Array;
  groups: Float32Array;
  /** 1 when the group's words are filled. */
  filled: Uint8Array;
}

/**
 * The first `wn` impacts of a field's window as (norm byte, freq) pairs:
 * `out[0]` is the count, pair k at out[1 + 2k], out[2 + 2k]. `out` is reused
 * when large enough.
 */
export function impactPairs(win: readonly Impact[], wn: number, out: Int32Array | undefined): Int32Array {
  const pairs = out !== undefined && out.length >= 2 * wn + 1 ? out : new Int32Array(2 * wn + 9);
  pairs[0] = wn;
  for (let k = 0; k < wn; k++) {
    pairs[1 + 2 * k] = intToByte4(win[k].norm);
    pairs[2 + 2 * k] = win[k].freq;
  }
  return pairs;
}

/**
 * The largest freq among `pairs` (impactPairs) whose norm byte is at most
 * `normByte`: every doc of the window with the term in the field is dominated
 * by one of the impacts, so this bounds the freq of a doc with that norm byte
 * (0: the doc cannot have the term in the field).
 */
export function maxFreqAtNorm(pairs: Int32Array, normByte: number): number {
  let mf = 0;
  const n = pairs[0];
  for (let k = 0; k < n; k++) if (pairs[1 + 2 * k] <= normByte && pairs[2 + 2 * k] > mf) mf = pairs[2 + 2 * k];
  return mf;
}

/** Text-field lists (name and boost) as cache keys. */
const fieldsKeys = new WeakMap<readonly FieldLengths[], string>();

/** Kept as long as the bitset (held by the FilterCache), per schema text fields. */
const filterMinsCache = new WeakMap<Uint32Array, Map<string, FilterMins>>();

/** Float32 value at most `v` (v >= 0). */
function floatBelow(v: number): number {
  const f = Math.fround(v);
  return f <= v ? f : Math.fround(v * (1 - 1e-6));
}

function newFilterMins(bits: Uint32Array, maxDoc: number, length: (doc: number) => number): FilterMins {
  const nGroups = (bits.length + 63) >>> 6;
  return {
    bits,
    maxDoc,
    length,
    words: new Float32Array(bits.length),
    groups: new Float32Array(nGroups),
    filled: new Uint8Array(nGroups),
  };
}

function fillGroup(m: FilterMins, g: number): void {
  const { bits, maxDoc, words, length } = m;
  let gmin = Infinity;
  const end = Math.min(bits.length, (g + 1) << 6);
  for (let w = g << 6; w < end; w++) {
    let word = bits[w];
    let min = Infinity;
    while (word !== 0) {
      const low = word & -word;
      const d = (w << 5) + (31 - Math.clz32(low));
      word ^= low;
      if (d >= maxDoc) break;
      const dl = length(d);
      if (dl < min) min = dl;
    }
    const f = min === Infinity ? Infinity : floatBelow(min);
    words[w] = f;
    if (f < gmin) gmin = f;
  }
  m.groups[g] = gmin;
  m.filled[g] = 1;
}

/** Smallest entry of the words covering docs [lo, hi]. */
export function rangeMin(m: FilterMins, lo: number, hi: number): number {
  const words = m.words;
  let a = lo >>> 5;
  const b = Math.min(hi >>> 5, words.length - 1);
  let min = Infinity;
  while (a <= b) {
    const g = a >>> 6;
    if (m.filled[g] === 0) fillGroup(m, g);
    if ((a & 63) === 0 && a + 63 <= b) {
      if (m.groups[g] < min) min = m.groups[g];
      a += 64;
    } else {
      if (words[a] < min) min = words[a];
      a++;
    }
  }
  return min;
}

/**
 * The filter minima of `bits` (one segment's filter bitset) for the schema's
 * text fields `fields` (their norms `norms`, same order), built on first use
 * and kept as long as the bitset.
 */
export function filterMinsFor(
  bits: Uint32Array,
  fields: readonly FieldLengths[],
  norms: readonly (Uint8Array | null)[],
  reader: SegmentReader,
): FilterMins {
  let byFields = filterMinsCache.get(bits);
  if (byFields === undefined) filterMinsCache.set(bits, (byFields = new Map()));
  let key = fieldsKeys.get(fields);
  if (key === undefined) fieldsKeys.set(fields, (key = fields.map((f) => `${f.name}\u0000${f.boost}`).join('\u0001')));
  let m = byFields.get(key);
  if (m === undefined) {
    // The length function holds no scorer (the entry lives as long as the bitset).
    const lengths = reader.norms ? docLengthsOf(fields, norms) : null;
    const length =
      lengths !== null
        ? (doc: number): number => lengths[doc]
        : (doc: number): number => {
            let dl = 0;
            for (let i = 0; i < fields.length; i++) dl += fields[i].boost * reader.fieldLength(fields[i].name, doc);
            return dl;
          };
    m = newFilterMins(bits, reader.maxDoc, length);
    byFields.set(key, m);
  }
  return m;
}
