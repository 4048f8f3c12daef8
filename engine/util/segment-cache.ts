/**
 * A cache of entries that belong to one segment each (a document version's
 * more-like-this terms, its related-document entry, a similar list made for
 * it). Segments are immutable, so such an entry stays valid while its segment
 * lives, and is never asked for again once a merge has replaced the segment:
 * `retain(liveIds)` drops the entries of every other segment at once (one step
 * per dead segment, not per entry). Under a stream of commits and merges the
 * cache so holds entries of live segments only, instead of filling up with
 * dead ones to its bound.
 *
 * At most `maxEntries` entries: past it, the segments used least recently are
 * dropped whole until half the bound is left (a segment holding more than the
 * bound alone starts over).
 */
export class SegmentCache<K, V> {
  /** Entries by segment id; the map's order is least recently used segment first. */
  private readonly bySegment = new Map<string, Map<K, V>>();
  private count = 0;
  private retainedAt = -1;

  constructor(private readonly maxEntries: number) {
    if (!(maxEntries >= 2)) throw new RangeError('SegmentCache: maxEntries must be at least 2');
  }

  /** Entries held. */
  get size(): number {
    return this.count;
  }

  /** Segments with entries. */
  get segments(): number {
    return this.bySegment.size;
  }

  get(segment: string, key: K): V | undefined {
    const inner = this.bySegment.get(segment);
    if (inner === undefined) return undefined;
    const v = inner.get(key);
    if (v !== undefined && this.bySegment.size > 1) {
      // Most recently used segment last (re-inserting a key moves it to the end of a Map).
      this.bySegment.delete(segment);
      this.bySegment.set(segment, inner);
    }
    return v;
  }

  set(segment: string, key: K, value: V): void {
    let inner = this.bySegment.get(segment);
    if (inner === undefined) this.bySegment.set(segment, (inner = new Map()));
    if (!inner.has(key)) {
      if (this.count >= this.maxEntries) {
        this.evict(segment, inner);
        if (!this.bySegment.has(segment)) this.bySegment.set(segment, (inner = new Map()));
      }
      this.count++;
    }
    inner.set(key, value);
  }

  delete(segment: string, key: K): void {
    const inner = this.bySegment.get(segment);
    if (inner?.delete(key)) this.count--;
  }

  clear(): void {
    this.bySegment.clear();
    this.count = 0;
  }

  /**
   * Drops the entries of every segment not in `liveIds` (called with the segments of a snapshot;
   * only for a `generation` later than the last one, so an old searcher does not drop newer segments).
   */
  retain(generation: number, liveIds: () => Iterable<string>): void {
    if (generation <= this.retainedAt) return;
    this.retainedAt = generation;
    if (this.bySegment.size === 0) return;
    const live = new Set(liveIds());
    for (const [segment, inner] of this.bySegment) {
      if (live.has(segment)) continue;
      this.count -= inner.size;
      this.bySegment.delete(segment);
    }
  }

  /** Frees room for one entry of `segment`: least recently used segments first, down to half the bound. */
  private evict(segment: string, inner: Map<K, V>): void {
    for (const [s, m] of this.bySegment) {
      if (this.count <= this.maxEntries / 2) return;
      if (s === segment) continue;
      this.count -= m.size;
      this.bySegment.delete(s);
    }
    if (this.count >= this.maxEntries) {
      this.count -= inner.size;
      this.bySegment.delete(segment);
    }
  }
}
