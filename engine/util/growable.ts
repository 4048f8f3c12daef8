/** Growable typed arrays for the indexing buffers (no per-element objects). */

export class IntList {
  data: Int32Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Int32Array(Math.max(16, initial));
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  grow(min: number): void {
    let cap = this.data.length * 2;
    while (cap < min) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** Sets index i (growing and zero-filling as needed). */
  set(i: number, v: number): void {
    if (i >= this.data.length) this.grow(i + 1);
    this.data[i] = v;
    if (i >= this.length) this.length = i + 1;
  }

  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

export class FloatList {
  data: Float64Array;
  length = 0;

  constructor(
    initial = 1024,
    private readonly fill = 0,
  ) {
    this.data = new Float64Array(Math.max(16, initial)).fill(fill);
  }

  set(i: number, v: number): void {
    if (i >= this.data.length) {
      let cap = this.data.length * 2;
      while (cap <= i) cap *= 2;
      const next = new Float64Array(cap).fill(this.fill);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data[i] = v;
    if (i >= this.length) this.length = i + 1;
  }

  /** Copy of [0, n), padded with the fill value. */
  toArray(n: number): Float64Array {
    const out = new Float64Array(n).fill(this.fill);
    out.set(this.data.subarray(0, Math.min(n, this.length)));
    return out;
  }
}

export class ByteList {
  data: Uint8Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Uint8Array(Math.max(16, initial));
  }

  set(i: number, v: number): void {
    if (i >= this.data.length) {
      let cap = this.data.length * 2;
      while (cap <= i) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data[i] = v;
    if (i >= this.length) this.length = i + 1;
  }

  toArray(n: number): Uint8Array {
    const out = new Uint8Array(n);
    out.set(this.data.subarray(0, Math.min(n, this.length)));
    return out;
  }
}
