/**
 * Filters: validation and per-segment evaluation.
 *
 * A filter is compiled per segment in one of two ways, chosen by cost:
 *  - bitset: keyword leaves OR the keywordDocs postings of their values into a
 *    bitset, numeric leaves scan the column, and/or/not combine words. Built
 *    once and kept in a FilterCache under (segment id, canonical filter), so a
 *    repeated filter (the access-token set of a user) costs one bit test per doc.
 *  - per doc: the tree is evaluated on the doc's column values; chosen when
 *    the query enumerates far fewer docs than building the bitset would touch.
 * Deleted docs are not part of a filter; the searcher checks them separately.
 */
import type { SegmentReader } from '../segment/types.ts';
import { NO_MORE_DOCS } from '../segment/types.ts';
import { QueryError } from './parser.ts';
import type { Filter } from './types.ts';

export interface FilterSchema {
  keywordFields: readonly string[];
  numericFields: readonly string[];
}

export interface FilterLimits {
  /** Deepest nesting of and/or/not. Default 32. */
  maxDepth: number;
  /** Most values over all keyword leaves. Default 10000. */
  maxValues: number;
}

const DEFAULT_LIMITS: FilterLimits = { maxDepth: 32, maxValues: 10000 };

/** Throws QueryError('invalid_filter') for malformed trees, unknown fields or oversized filters. */
export function validateFilter(filter: Filter, schema: FilterSchema, limits: Partial<FilterLimits> = {}): void {
  const maxDepth = limits.maxDepth ?? DEFAULT_LIMITS.maxDepth;
  const maxValues = limits.maxValues ?? DEFAULT_LIMITS.maxValues;
  let values = 0;
  const bad = (msg: string): never => {
    throw new QueryError('invalid_filter', msg);
  };
  const walk = (f: Filter, depth: number): void => {
    if (depth > maxDepth) bad(`filter nests deeper than ${maxDepth}`);
    if (f === null || typeof f !== 'object') bad('filter must be an object');
    if ('and' in f || 'or' in f) {
      const list = 'and' in f ? f.and : (f as { or: Filter[] }).or;
      if (!Array.isArray(list)) bad('and/or takes an array of filters');
      for (const c of list) walk(c, depth + 1);
    } else if ('not' in f) {
      walk(f.not, depth + 1);
    } else if ('keyword' in f) {
      if (!schema.keywordFields.includes(f.keyword)) bad(`unknown keyword field "${f.keyword}"`);
      if (!Array.isArray(f.anyOf) || f.anyOf.some((v) => typeof v !== 'string')) bad('anyOf takes an array of strings');
      values += f.anyOf.length;
      if (values > maxValues) bad(`filter has more than ${maxValues} values`);
    } else if ('numeric' in f) {
      if (!schema.numericFields.includes(f.numeric)) bad(`unknown numeric field "${f.numeric}"`);
      for (const b of [f.gte, f.lte])
        if (b !== undefined && (typeof b !== 'number' || Number.isNaN(b))) bad('numeric bounds must be numbers');
    } else {
      bad('filter needs one of and, or, not, keyword, numeric');
    }
  };
  walk(filter, 0);
}

const keys = new WeakMap<object, string>();

/**
 * Stable text of a filter, used as cache key (value order does not matter).
 * Memoised per filter object, so a filter passed to several calls (the viewer's
 * access-token set) is canonicalised once and its key string hashed once: a
 * filter object must not be changed after it is handed to the engine.
 */
export function filterKey(f: Filter): string {
  let k = keys.get(f);
  if (k === undefined) {
    k = computeKey(f);
    keys.set(f, k);
  }
  return k;
}

function computeKey(f: Filter): string {
  if ('and' in f) return `and(${f.and.map(filterKey).sort().join(',')})`;
  if ('or' in f) return `or(${f.or.map(filterKey).sort().join(',')})`;
  if ('not' in f) return `not(${filterKey(f.not)})`;
  if ('keyword' in f) return `kw(${JSON.stringify(f.keyword)}:${JSON.stringify([...new Set(f.anyOf)].sort())})`;
  return `num(${JSON.stringify(f.numeric)}:${f.gte ?? ''}:${f.lte ?? ''})`;
}

/**
 * Use counts kept (filter keys, and (key, segment) pairs: segment ids are never reused, so the
 * pairs of a long-running index would grow without end) before the counts start over.
 */
const MAX_USAGE_KEYS = 4096;
const MAX_USAGE_PAIRS = 65_536;

interface CacheEntry {
  key: string;
  segmentId: string;
  bits: Uint32Array;
}

/**
 * Bitsets per (segment id, filter key), least recently used evicted past
 * `maxBytes` (default 64 MiB), as Lucene's LRUQueryCache. Segments are
 * immutable and deletions are checked apart, so an entry stays valid for the
 * segment's life. Entries are found by filter key, then segment id (no
 * concatenated key per lookup: a key of hundreds of access tokens is hashed
 * once per string object).
 */
export class FilterCache {
  private readonly byKey = new Map<string, Map<string, CacheEntry>>();
  /** Entries, least recently used first. */
  private readonly lru = new Set<CacheEntry>();
  /** Build costs and use counts of filters not (or no longer) cached, per key then segment. */
  private readonly uses = new Map<string, Map<string, { cost: number; uses: number }>>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(segmentId: string, key: string): Uint32Array | undefined {
    const e = this.byKey.get(key)?.get(segmentId);
    if (!e) return undefined;
    this.lru.delete(e);
    this.lru.add(e);
    return e.bits;
  }

  set(segmentId: string, key: string, bits: Uint32Array): void {
    let inner = this.byKey.get(key);
    if (!inner) this.byKey.set(key, (inner = new Map()));
    const old = inner.get(segmentId);
    if (old) this.remove(old);
    const e: CacheEntry = { key, segmentId, bits };
    inner.set(segmentId, e);
    this.lru.add(e);
    this.bytes += bits.byteLength;
    for (const v of this.lru) {
      if (this.bytes <= this.maxBytes || v === e) break;
      this.remove(v);
    }
  }

  /**
   * Build cost of (segment, filter) as `compute` gives it, memoised, and the
   * number of times the pair was asked for (this call included).
   */
  usage(segmentId: string, key: string, compute: () => number): { cost: number; uses: number } {
    let inner = this.uses.get(key);
    if (!inner) {
      if (this.uses.size >= MAX_USAGE_KEYS) this.clearUsage();
      this.uses.set(key, (inner = new Map()));
    }
    let u = inner.get(segmentId);
    if (!u) {
      if (this.usagePairs >= MAX_USAGE_PAIRS) {
        this.clearUsage();
        this.uses.set(key, (inner = new Map()));
      }
      inner.set(segmentId, (u = { cost: compute(), uses: 0 }));
      this.usagePairs++;
    }
    u.uses++;
    return u;
  }

  private usagePairs = 0;

  private clearUsage(): void {
    this.uses.clear();
    this.usagePairs = 0;
  }

  /** Bytes held by the cached bitsets. */
  get size(): number {
    return this.bytes;
  }

  private remove(e: CacheEntry): void {
    this.lru.delete(e);
    this.bytes -= e.bits.byteLength;
    const inner = this.byKey.get(e.key);
    if (inner?.get(e.segmentId) === e) {
      inner.delete(e.segmentId);
      if (inner.size === 0) this.byKey.delete(e.key);
    }
  }
}

/** Docs a bitset build would touch (postings lengths of keyword values, a column scan per numeric leaf). */
export function filterBuildCost(f: Filter, reader: SegmentReader): number {
  if ('and' in f) return f.and.reduce((s, c) => s + filterBuildCost(c, reader), 0);
  if ('or' in f) return f.or.reduce((s, c) => s + filterBuildCost(c, reader), 0);
  if ('not' in f) return filterBuildCost(f.not, reader) + (reader.maxDoc >>> 5);
  if ('keyword' in f) {
    let c = 0;
    for (const v of f.anyOf) c += reader.keywordDocs(f.keyword, v)?.cost() ?? 0;
    return c + f.anyOf.length;
  }
  return reader.maxDoc;
}

export function buildFilterBits(f: Filter, reader: SegmentReader): Uint32Array {
  const words = (reader.maxDoc + 31) >>> 5;
  const bits = new Uint32Array(words);
  if ('and' in f) {
    bits.fill(0xffffffff);
    for (const c of f.and) {
      const b = buildFilterBits(c, reader);
      for (let i = 0; i < words; i++) bits[i] &= b[i];
    }
  } else if ('or' in f) {
    for (const c of f.or) {
      const b = buildFilterBits(c, reader);
      for (let i = 0; i < words; i++) bits[i] |= b[i];
    }
  } else if ('not' in f) {
    const b = buildFilterBits(f.not, reader);
    for (let i = 0; i < words; i++) bits[i] = ~b[i];
  } else if ('keyword' in f) {
    for (const v of new Set(f.anyOf)) {
      const it = reader.keywordDocs(f.keyword, v);
      if (!it) continue;
      for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) bits[d >>> 5] |= 1 << (d & 31);
    }
  } else {
    const lo = f.gte ?? -Infinity;
    const hi = f.lte ?? Infinity;
    for (let d = 0; d < reader.maxDoc; d++) {
      const x = reader.numeric(f.numeric, d);
      if (x !== undefined && x >= lo && x <= hi) bits[d >>> 5] |= 1 << (d & 31);
    }
  }
  return bits;
}

/** Per-doc predicate over the columns, no precomputation beyond value sets. */
export function filterPredicate(f: Filter, reader: SegmentReader): (doc: number) => boolean {
  if ('and' in f) {
    const cs = f.and.map((c) => filterPredicate(c, reader));
    return (d) => cs.every((c) => c(d));
  }
  if ('or' in f) {
    const cs = f.or.map((c) => filterPredicate(c, reader));
    return (d) => cs.some((c) => c(d));
  }
  if ('not' in f) {
    const c = filterPredicate(f.not, reader);
    return (d) => !c(d);
  }
  if ('keyword' in f) {
    const set = new Set(f.anyOf);
    const field = f.keyword;
    return (d) => {
      const vals = reader.keywords(field, d);
      for (let i = 0; i < vals.length; i++) if (set.has(vals[i])) return true;
      return false;
    };
  }
  const lo = f.gte ?? -Infinity;
  const hi = f.lte ?? Infinity;
  const field = f.numeric;
  return (d) => {
    const x = reader.numeric(field, d);
    return x !== undefined && x >= lo && x <= hi;
  };
}

/** A compiled per-segment filter: the predicate, plus the bitset when one was used. */
export interface CompiledFilter {
  matches: (doc: number) => boolean;
  bits: Uint32Array | null;
  /** The filter accepts every doc of the segment (then `bits` is null: nothing to skip). */
  all: boolean;
}

const acceptAll = (): boolean => true;
/** Whether a cached bitset has every doc of its segment set, memoised per bitset. */
const fullBits = new WeakMap<Uint32Array, boolean>();

function isFull(bits: Uint32Array, maxDoc: number): boolean {
  let full = fullBits.get(bits);
  if (full === undefined) {
    const whole = maxDoc >>> 5;
    full = true;
    for (let i = 0; i < whole && full; i++) if (bits[i] !== 0xffffffff) full = false;
    const rest = maxDoc & 31;
    const mask = 0xffffffff >>> (32 - rest);
    if (full && rest > 0 && (bits[whole] & mask) >>> 0 !== mask) full = false;
    fullBits.set(bits, full);
  }
  return full;
}

/**
 * Compile `filter` for one segment: a cached bitset when present; per-doc
 * checks on the first use of the filter on the segment when `queryCost` (docs
 * the query may enumerate) is under an eighth of the bitset's build cost;
 * otherwise (a repeated filter, such as a viewer's access-token set, or an
 * expensive query) build the bitset and cache it.
 */
export function compileFilter(
  filter: Filter,
  key: string,
  reader: SegmentReader,
  cache: FilterCache,
  queryCost: number,
): CompiledFilter {
  let bits = cache.get(reader.id, key);
  if (!bits) {
    const u = cache.usage(reader.id, key, () => filterBuildCost(filter, reader));
    if (u.uses < 2 && queryCost * 8 < u.cost)
      return { matches: filterPredicate(filter, reader), bits: null, all: false };
    bits = buildFilterBits(filter, reader);
    cache.set(reader.id, key, bits);
  }
  // A filter that keeps the whole segment (every doc visible to the viewer) costs nothing there.
  if (isFull(bits, reader.maxDoc)) return { matches: acceptAll, bits: null, all: true };
  let c = compiledBits.get(bits);
  if (c === undefined) compiledBits.set(bits, (c = { matches: bitTest(bits), bits, all: false }));
  return c;
}

/** The compiled form of each cached bitset (one object per bitset: compiled filters are only read). */
const compiledBits = new WeakMap<Uint32Array, CompiledFilter>();

/** Membership test of bitset `b` (a module function: no closure made and named per compileFilter call). */
function bitTest(b: Uint32Array): (doc: number) => boolean {
  return (d) => (b[d >>> 5] & (1 << (d & 31))) !== 0;
}

/** First set bit at or after `from` below `maxDoc`, or NO_MORE_DOCS. */
export function nextSetBit(bits: Uint32Array, from: number, maxDoc: number): number {
  if (from >= maxDoc) return NO_MORE_DOCS;
  let w = from >>> 5;
  let word = bits[w] & (0xffffffff << (from & 31));
  while (word === 0) {
    if (++w >= bits.length) return NO_MORE_DOCS;
    word = bits[w];
  }
  const d = (w << 5) + (31 - Math.clz32(word & -word));
  return d < maxDoc ? d : NO_MORE_DOCS;
}
