/**
 * A bounded map for caches: at most `maxEntries` entries, the least recently
 * used dropped first in bulk. Entries live in two generations: new and read
 * entries go to the young one; when it holds half the bound, it becomes the old
 * one and the previous old generation is dropped whole. A read of an old entry
 * moves it to the young generation, so an entry read at least once per half
 * bound of writes stays.
 *
 * Every operation is O(1). (A Map used as an LRU list, evicting its first key
 * via `keys().next()` after deletes, walks the deleted slots at the front of
 * V8's hash table: tens of microseconds per eviction at 50,000 entries.)
 */
export class BoundedMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(maxEntries: number) {
    if (!(maxEntries >= 2)) throw new RangeError('BoundedMap: maxEntries must be at least 2');
    this.half = Math.floor(maxEntries / 2);
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) {
      this.old.delete(key);
      this.put(key, o);
    }
    return o;
  }

  set(key: K, value: V): void {
    this.old.delete(key);
    this.put(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }

  /** Entries held (at most maxEntries). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  private put(key: K, value: V): void {
    const young = this.young;
    if (!young.has(key) && young.size >= this.half) {
      this.old = young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
