/**
 * The accumulator of term-at-a-time scoring (ScoreTable: scores per doc id in
 * a small open-addressing table) and CombinedScorer's scoreRest into it
 * (addCombinedScores): the term's postings per field drained in bulk
 * (PostingsIterator.drain), merged by doc, the docs' lengths gathered apart
 * from the scoring loop (independent loads of a large array overlap). The
 * sparse exhaustive collector (collector/sparse-exhaustive.ts) offers the
 * table's docs to the top k.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import type { PostingsIterator } from '../segment/types.ts';
import { bm25Score } from '../similarity/bm25.ts';
import type { TermWeight } from '../similarity/bm25.ts';
import { advanceIterator, bitSet } from './scorers.ts';

/** Scores per doc id: open addressing, linear probing; `used` lists the occupied slots in insertion order. */
export class ScoreTable {
  private keys = new Int32Array(0).fill(-1);
  private vals = new Float64Array(0);
  private used = new Int32Array(0);
  private mask = 0;
  /** Occupied slots. */
  size = 0;

  /** Empties the table and makes room for `n` distinct docs. */
  reset(n: number): void {
    let cap = 16;
    while (cap < 2 * n) cap <<= 1;
    if (cap > this.keys.length) {
      this.keys = new Int32Array(cap).fill(-1);
      this.vals = new Float64Array(cap);
      this.used = new Int32Array(cap);
    } else {
      for (let i = 0; i < this.size; i++) this.keys[this.used[i]] = -1;
    }
    this.mask = this.keys.length - 1;
    this.size = 0;
  }

  /** Adds `score` to the total of `doc` (a new doc starts from 0). */
  add(doc: number, score: number): void {
    const keys = this.keys;
    const mask = this.mask;
    let i = Math.imul(doc, 0x9e3779b1) & mask;
    for (;;) {
      const k = keys[i];
      if (k === doc) {
        this.vals[i] += score;
        return;
      }
      if (k === -1) {
        keys[i] = doc;
        this.vals[i] = 0 + score;
        this.used[this.size++] = i;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private docs = new Int32Array(0);
  private freqs = new Int32Array(0);
  private marks = new Int32Array(0);

  /**
   * Scratch of a scorer's scoreRest (valid until the next call): `docs` and `freqs` of at least
   * `n` entries, `marks` of at least 2 × `cursors`.
   */
  scratch(n: number, cursors: number): { docs: Int32Array; freqs: Int32Array; marks: Int32Array } {
    if (this.docs.length < n) {
      this.docs = new Int32Array(Math.max(n, 2 * this.docs.length));
      this.freqs = new Int32Array(this.docs.length);
    }
    if (this.marks.length < 2 * cursors) this.marks = new Int32Array(2 * cursors);
    return { docs: this.docs, freqs: this.freqs, marks: this.marks };
  }

  private mdocs = new Int32Array(0);
  private mfreqs = new Float64Array(0);
  private dls = new Float64Array(0);

  /** Scratch of a scoreRest's merged docs, their freqs and lengths: at least `n` each (valid until the next call). */
  merged(n: number): { docs: Int32Array; freqs: Float64Array; lengths: Float64Array } {
    if (this.mdocs.length < n) {
      const cap = Math.max(n, 2 * this.mdocs.length);
      this.mdocs = new Int32Array(cap);
      this.mfreqs = new Float64Array(cap);
      this.dls = new Float64Array(cap);
    }
    return { docs: this.mdocs, freqs: this.mfreqs, lengths: this.dls };
  }

  /** Doc of the i-th occupied slot (insertion order). */
  docAt(i: number): number {
    return this.keys[this.used[i]];
  }

  /** Total of the i-th occupied slot. */
  scoreAt(i: number): number {
    return this.vals[this.used[i]];
  }
}

/** One term's postings in one field with the field's boost (a CombinedScorer cursor). */
export interface FieldPostings {
  readonly it: PostingsIterator;
  readonly boost: number;
}

/**
 * CombinedScorer.scoreRest: the BM25F score of every doc after `cur` (only those set in
 * `bits`, when given) of one term over its fields, added to `table`, exactly as score()
 * computes it: freq = Σ boost · tf over the cursors in order from 0, the doc's length
 * from `lengths` (or `length` without them). Leaves every iterator exhausted.
 */
export function addCombinedScores(
  table: ScoreTable,
  cursors: readonly FieldPostings[],
  cur: number,
  bits: Uint32Array | null,
  w: TermWeight,
  lengths: Float64Array | null,
  length: (doc: number) => number,
): void {
  const n = cursors.length;
  let cap = 0;
  for (let i = 0; i < n; i++) {
    if (cursors[i].it.drain === undefined) {
      addCombinedScoresByDoc(table, cursors, cur, bits, w, length);
      return;
    }
    cap += cursors[i].it.cost();
  }
  // each cursor's remaining (doc, freq) pairs (marks: start of cursor i's run at i, its end at n + i)
  const { docs, freqs, marks } = table.scratch(cap, n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const it = cursors[i].it;
    const d = it.docID();
    marks[i] = at;
    // a cursor ahead of the current doc is on a doc not consumed yet; drain() starts after it
    if (d > cur && d !== NO_MORE_DOCS && (bits === null || bitSet(bits, d))) {
      docs[at] = d;
      freqs[at++] = it.freq();
    }
    at = it.drain!(bits, docs, freqs, at);
    marks[n + i] = at;
  }
  // merged by doc
  const { docs: mdocs, freqs: mfreqs, lengths: dls } = table.merged(at);
  let m = 0;
  if (n === 1) {
    const boost = cursors[0].boost;
    for (let j = 0; j < at; j++) {
      mdocs[j] = docs[j];
      mfreqs[j] = 0 + boost * freqs[j];
    }
    m = at;
  } else if (n === 2) {
    m = mergeTwo(
      docs,
      freqs,
      marks[0],
      marks[2],
      marks[1],
      marks[3],
      cursors[0].boost,
      cursors[1].boost,
      mdocs,
      mfreqs,
    );
  } else {
    for (;;) {
      let doc = NO_MORE_DOCS;
      for (let i = 0; i < n; i++) if (marks[i] < marks[n + i] && docs[marks[i]] < doc) doc = docs[marks[i]];
      if (doc === NO_MORE_DOCS) break;
      let freq = 0;
      for (let i = 0; i < n; i++) {
        const p = marks[i];
        if (p < marks[n + i] && docs[p] === doc) {
          freq += cursors[i].boost * freqs[p];
          marks[i] = p + 1;
        }
      }
      mdocs[m] = doc;
      mfreqs[m++] = freq;
    }
  }
  // lengths gathered in a loop of their own: independent loads of a large array overlap
  if (lengths !== null) for (let j = 0; j < m; j++) dls[j] = lengths[mdocs[j]];
  else for (let j = 0; j < m; j++) dls[j] = length(mdocs[j]);
  for (let j = 0; j < m; j++) table.add(mdocs[j], bm25Score(w, mfreqs[j], dls[j]));
}

/** addCombinedScores through the iterators' nextDoc()/advanceMatching() (iterators without drain). */
function addCombinedScoresByDoc(
  table: ScoreTable,
  cursors: readonly FieldPostings[],
  cur: number,
  bits: Uint32Array | null,
  w: TermWeight,
  length: (doc: number) => number,
): void {
  const n = cursors.length;
  for (let i = 0; i < n; i++) {
    const it = cursors[i].it;
    const d = it.docID();
    if (d <= cur || (bits !== null && d !== NO_MORE_DOCS && !bitSet(bits, d))) {
      if (bits !== null) advanceIterator(it, cur + 1, bits);
      else it.nextDoc();
    }
  }
  for (;;) {
    let doc = NO_MORE_DOCS;
    for (let i = 0; i < n; i++) {
      const d = cursors[i].it.docID();
      if (d < doc) doc = d;
    }
    if (doc === NO_MORE_DOCS) break;
    let freq = 0;
    for (let i = 0; i < n; i++) {
      const c = cursors[i];
      const it = c.it;
      if (it.docID() !== doc) continue;
      freq += c.boost * it.freq();
      if (bits !== null) advanceIterator(it, doc + 1, bits);
      else it.nextDoc();
    }
    table.add(doc, bm25Score(w, freq, length(doc)));
  }
}

/**
 * The two-cursor merge of addCombinedScores: runs docs[p, pe) (boost b0) and docs[q, qe) (boost b1),
 * each ascending, into mdocs/mfreqs; freq = 0 + b0 · tf0 + b1 · tf1 (the terms present, in that
 * order: the sum the general merge and score() compute). Returns the merged count.
 */
function mergeTwo(
  docs: Int32Array,
  freqs: Int32Array,
  p: number,
  pe: number,
  q: number,
  qe: number,
  b0: number,
  b1: number,
  mdocs: Int32Array,
  mfreqs: Float64Array,
): number {
  let m = 0;
  while (p < pe && q < qe) {
    const a = docs[p];
    const b = docs[q];
    if (a < b) {
      mdocs[m] = a;
      mfreqs[m++] = 0 + b0 * freqs[p++];
    } else if (b < a) {
      mdocs[m] = b;
      mfreqs[m++] = 0 + b1 * freqs[q++];
    } else {
      mdocs[m] = a;
      mfreqs[m++] = 0 + b0 * freqs[p++] + b1 * freqs[q++];
    }
  }
  for (; p < pe; p++) {
    mdocs[m] = docs[p];
    mfreqs[m++] = 0 + b0 * freqs[p];
  }
  for (; q < qe; q++) {
    mdocs[m] = docs[q];
    mfreqs[m++] = 0 + b1 * freqs[q];
  }
  return m;
}
