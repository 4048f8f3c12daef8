/**
 * A bounded open-addressing memo table from words to int32 analysis codes, keyed
 * either by a string or directly by a range of the source text (ASCII words
 * are looked up lower-cased in place, without allocating a substring). When
 * it holds `limit` entries it is cleared, which keeps memory bounded.
 *
 * Each slot's hash and value sit side by side in one Int32Array, so a probe reads one
 * cache line before it touches the key string; a small direct-mapped front table keeps
 * frequent words the same way.
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

/** What lookups return for an absent word; never a stored value. */
export const MISSING = -0x80000000;

/** True when text[start, start + k.length) lower-cased (ASCII) equals k. */
function sameLower(text: string, start: number, k: string): boolean {
  for (let j = 0; j < k.length; j++) {
    let c = text.charCodeAt(start + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== k.charCodeAt(j)) return false;
  }
  return true;
}

export class WordTable {
  /** Front cache: [hash, value] per slot, and the slot's key. */
  private readonly hot = new Int32Array(2 * HOT_SIZE);
  private readonly hotKeys: (string | undefined)[] = new Array(HOT_SIZE).fill(undefined);
  /** [hash, value] per slot; value MISSING marks an empty slot. */
  private slots = new Int32Array(0);
  private keys: (string | undefined)[] = [];
  private mask = 0;
  private count = 0;

  /** `limit`: entries kept before the table is cleared; the table grows up to twice that many slots. */
  constructor(private readonly limit: number) {
    this.allocate(4096);
  }

  private allocate(cap: number): void {
    this.mask = cap - 1;
    this.keys = new Array(cap).fill(undefined);
    this.slots = new Int32Array(2 * cap);
    for (let i = 1; i < 2 * cap; i += 2) this.slots[i] = MISSING;
  }

  private grow(): void {
    const { keys, slots } = this;
    this.allocate(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k === undefined) continue;
      const h = slots[2 * i];
      let j = h & this.mask;
      while (this.slots[2 * j + 1] !== MISSING) j = (j + 1) & this.mask;
      this.keys[j] = k;
      this.slots[2 * j] = h;
      this.slots[2 * j + 1] = slots[2 * i + 1];
    }
  }

  get size(): number {
    return this.count;
  }

  /** Value stored for the lower-cased ASCII range text[start, end) with hash h, or MISSING. */
  getRange(text: string, start: number, end: number, h: number): number {
    const len = end - start;
    const slot = (h >>> 7) & (HOT_SIZE - 1);
    const hot = this.hot;
    if (hot[2 * slot] === h) {
      const k = this.hotKeys[slot];
      if (k !== undefined && k.length === len && sameLower(text, start, k)) return hot[2 * slot + 1];
    }
    return this.probeRange(text, start, len, h, slot);
  }

  /** getRange past the front cache (which takes the word when found). */
  private probeRange(text: string, start: number, len: number, h: number, slot: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const v = slots[2 * i + 1];
      if (v === MISSING) return MISSING;
      if (slots[2 * i] === h) {
        const k = this.keys[i]!;
        if (k.length === len && sameLower(text, start, k)) {
          this.hot[2 * slot] = h;
          this.hot[2 * slot + 1] = v;
          this.hotKeys[slot] = k;
          return v;
        }
      }
      i = (i + 1) & mask;
    }
  }

  /** Value stored for `key` with hash h, or MISSING. */
  get(key: string, h: number): number {
    const slots = this.slots;
    let i = h & this.mask;
    for (;;) {
      const v = slots[2 * i + 1];
      if (v === MISSING) return MISSING;
      if (slots[2 * i] === h && this.keys[i] === key) return v;
      i = (i + 1) & this.mask;
    }
  }

  /** Stores value (not MISSING) for key (hash h); the key must not be present. */
  set(key: string, h: number, value: number): void {
    if (this.count >= this.limit) this.clear();
    else if (this.count * 2 >= this.keys.length) this.grow();
    let i = h & this.mask;
    while (this.slots[2 * i + 1] !== MISSING) i = (i + 1) & this.mask;
    this.keys[i] = key;
    this.slots[2 * i] = h;
    this.slots[2 * i + 1] = value;
    this.count++;
  }

  clear(): void {
    this.hotKeys.fill(undefined);
    this.keys.fill(undefined);
    for (let i = 1; i < this.slots.length; i += 2) this.slots[i] = MISSING;
    this.count = 0;
  }
}
