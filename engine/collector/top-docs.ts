/**
 * TopDocs: the fixed-size min-heap of the best k (score, global doc) pairs.
 * Higher scores win; equal scores go to the lower global doc id (segment
 * order, then doc id). Parallel typed arrays, no allocation per offer.
 */
/** Fixed-size min-heap of (score, global doc); the root is the weakest hit kept. */
export class TopDocs {
  readonly scores: Float64Array;
  readonly docs: Float64Array;
  size = 0;
  /** Global docs offered already by seeding (seed.ts): offers of them are ignored; null = none. */
  skip: Set<number> | null = null;

  constructor(readonly k: number) {
    this.scores = new Float64Array(Math.max(1, k));
    this.docs = new Float64Array(Math.max(1, k));
  }

  get full(): boolean {
    return this.k > 0 && this.size >= this.k;
  }

  /** Score a new doc must beat (strictly, since later docs lose ties). */
  minScore(): number {
    return this.full ? this.scores[0] : -Infinity;
  }

  private worse(i: number, j: number): boolean {
    const a = this.scores[i];
    const b = this.scores[j];
    return a < b || (a === b && this.docs[i] > this.docs[j]);
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i];
    this.scores[i] = this.scores[j];
    this.scores[j] = s;
    const d = this.docs[i];
    this.docs[i] = this.docs[j];
    this.docs[j] = d;
  }

  offer(score: number, doc: number): void {
    if (this.k === 0 || (this.skip !== null && this.skip.has(doc))) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.docs[i] = doc;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    const rs = this.scores[0];
    if (score < rs || (score === rs && doc > this.docs[0])) return;
    this.scores[0] = score;
    this.docs[0] = doc;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const m = r < this.size && this.worse(r, l) ? r : l;
      if (!this.worse(m, i)) break;
      this.swap(m, i);
      i = m;
    }
  }

  /** Hits best first. */
  sorted(): { score: number; doc: number }[] {
    const out: { score: number; doc: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i], doc: this.docs[i] });
    out.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return out;
  }
}
