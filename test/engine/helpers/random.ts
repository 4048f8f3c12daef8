/** Seeded PRNG and random corpora for query-layer tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/** Zipf-like word picker over `size` words named w0, w1, ... */
export function zipfWords(r: () => number, size: number): () => string {
  const weights = Array.from({ length: size }, (_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return () => {
    let x = r() * total;
    for (let i = 0; i < size; i++) {
      x -= weights[i];
      if (x <= 0) return `w${i}`;
    }
    return `w${size - 1}`;
  };
}
