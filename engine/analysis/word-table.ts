/**
 * A bounded open-addressing memo table from words to analysis results, keyed
 * either by a string or directly by a range of the source text (ASCII words
 * are looked up lower-cased in place, without allocating a substring). When
 * it holds `limit` entries it is cleared, which keeps memory bounded.
 */

/** FNV-1a hash of text[start, end) with ASCII A-Z lower-cased. */
export function hashRangeLower(text: string, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 16777619);
  }
  return h;
}

/** FNV-1a hash of a string (same function as hashRangeLower on lower-case text). */
export function hashString(s: string): number {
  return hashRangeLower(s, 0, s.length);
}

/** Slots of the small direct-mapped front cache (frequent words stay in CPU caches). */
const HOT_SIZE = 8192;

/** True when text[start, start + k.length) lower-cased (ASCII) equals k. */
function sameLower(text: string, start: number, k: string): boolean {
  for (let j = 0; j < k.length; j++) {
    let c = text.charCodeAt(start + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== k.charCodeAt(j)) return false;
  }
  return true;
}

export class WordTable<V> {
  private readonly hotKeys: (string | undefined)[] = new Array(HOT_SIZE).fill(undefined);
  private readonly hotHashes = new Int32Array(HOT_SIZE);
  private readonly hotValues: (V | undefined)[] = new Array(HOT_SIZE).fill(undefined);
  private keys: (string | undefined)[] = [];
  private hashes = new Int32Array(0);
  private values: (V | undefined)[] = [];
  private mask = 0;
  private count = 0;

  /** `limit`: entries kept before the table is cleared; the table grows up to twice that many slots. */
  constructor(private readonly limit: number) {
    this.allocate(4096);
  }

  private allocate(cap: number): void {
    this.mask = cap - 1;
    this.keys = new Array(cap).fill(undefined);
    this.values = new Array(cap).fill(undefined);
    this.hashes = new Int32Array(cap);
  }

  private grow(): void {
    const { keys, values, hashes } = this;
    this.allocate(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k === undefined) continue;
      let j = hashes[i] & this.mask;
      while (this.keys[j] !== undefined) j = (j + 1) & this.mask;
      this.keys[j] = k;
      this.hashes[j] = hashes[i];
      this.values[j] = values[i];
    }
  }

  get size(): number {
    return this.count;
  }

  /** Value stored for the lower-cased ASCII range text[start, end) with hash h. */
  getRange(text: string, start: number, end: number, h: number): V | undefined {
    const len = end - start;
    const slot = (h >>> 7) & (HOT_SIZE - 1);
    if (this.hotHashes[slot] === h) {
      const k = this.hotKeys[slot];
      if (k !== undefined && k.length === len && sameLower(text, start, k)) return this.hotValues[slot];
    }
    let i = h & this.mask;
    for (;;) {
      const k = this.keys[i];
      if (k === undefined) return undefined;
      if (this.hashes[i] === h && k.length === len) {
        let j = 0;
        for (; j < len; j++) {
          let c = text.charCodeAt(start + j);
          if (c >= 65 && c <= 90) c += 32;
          if (c !== k.charCodeAt(j)) break;
        }
        if (j === len) {
          const v = this.values[i];
          this.hotHashes[slot] = h;
          this.hotKeys[slot] = k;
          this.hotValues[slot] = v;
          return v;
        }
      }
      i = (i + 1) & this.mask;
    }
  }

  /** Value stored for `key` with hash h. */
  get(key: string, h: number): V | undefined {
    let i = h & this.mask;
    for (;;) {
      const k = this.keys[i];
      if (k === undefined) return undefined;
      if (this.hashes[i] === h && k === key) return this.values[i];
      i = (i + 1) & this.mask;
    }
  }

  /** Stores value for key (hash h); the key must not be present. */
  set(key: string, h: number, value: V): void {
    if (this.count >= this.limit) this.clear();
    else if (this.count * 2 >= this.keys.length) this.grow();
    let i = h & this.mask;
    while (this.keys[i] !== undefined) i = (i + 1) & this.mask;
    this.keys[i] = key;
    this.hashes[i] = h;
    this.values[i] = value;
    this.count++;
  }

  clear(): void {
    this.hotKeys.fill(undefined);
    this.hotValues.fill(undefined);
    this.keys.fill(undefined);
    this.values.fill(undefined);
    this.count = 0;
  }
}
