/**
 * BM25 scoring as pure functions (Lucene's formula).
 *
 *   idf   = ln(1 + (N - df + 0.5) / (df + 0.5))          N = docs having the field
 *   score = weight * freq / (freq + k1 * (1 - b + b * dl / avgdl))
 *   weight = boost * idf * (k1 + 1)
 *
 * The (k1 + 1) factor is kept, as Lucene 8 does (Lucene 9 drops it; ranking is
 * identical, only the scale differs). Field boosts multiply the weight. With
 * this form a term's score is strictly below `weight`, which is its global
 * upper bound; `bm25UpperBound` gives the tighter per-block bound from impacts.
 */
import type { Impact } from '../segment/types.ts';

export interface Bm25Params {
  /** Term-frequency saturation. Default 1.2. */
  k1: number;
  /** Length normalisation, 0 (none) to 1 (full). Default 0.75. */
  b: number;
}

export const DEFAULT_BM25: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.75 });

/** Merge user overrides onto the defaults, rejecting values outside the sane range. */
export function bm25Params(overrides?: Partial<Bm25Params>): Bm25Params {
  const k1 = overrides?.k1 ?? DEFAULT_BM25.k1;
  const b = overrides?.b ?? DEFAULT_BM25.b;
  if (!Number.isFinite(k1) || k1 < 0) throw new RangeError(`bm25.k1 must be a finite number >= 0, got ${k1}`);
  if (!Number.isFinite(b) || b < 0 || b > 1) throw new RangeError(`bm25.b must be within [0, 1], got ${b}`);
  return { k1, b };
}

/** Lucene's BM25 idf; `docCount` is the number of docs having the field. */
export function bm25Idf(docFreq: number, docCount: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** Precomputed per (term, field) constants so the hot loop does a handful of flops. */
export interface TermWeight {
  /** boost * idf * (k1 + 1). */
  weight: number;
  /** k1 * (1 - b). */
  kConst: number;
  /** k1 * b / avgdl. */
  kLen: number;
}

export function bm25TermWeight(
  params: Bm25Params,
  stats: { docFreq: number; docCount: number; avgFieldLength: number; boost?: number },
): TermWeight {
  const idf = bm25Idf(stats.docFreq, stats.docCount);
  const avgdl = stats.avgFieldLength > 0 ? stats.avgFieldLength : 1;
  return {
    weight: (stats.boost ?? 1) * idf * (params.k1 + 1),
    kConst: params.k1 * (1 - params.b),
    kLen: (params.k1 * params.b) / avgdl,
  };
}

/** Score of one (term, field) occurrence count in a doc whose field length is `fieldLength`. */
export function bm25Score(w: TermWeight, freq: number, fieldLength: number): number {
  // Grouped as freq + (length part) so a per-norm table of the length part yields identical values.
  return (w.weight * freq) / (freq + (w.kConst + w.kLen * fieldLength));
}

/** Upper bound of `bm25Score` over a block, from its impacts (max over freq/norm pairs). */
export function bm25UpperBound(w: TermWeight, impacts: readonly Impact[]): number {
  let max = 0;
  for (let i = 0; i < impacts.length; i++) {
    const s = bm25Score(w, impacts[i].freq, impacts[i].norm);
    if (s > max) max = s;
  }
  return max;
}

/** One-shot convenience: full BM25 of a term in a doc. */
export function bm25(
  params: Bm25Params,
  input: {
    freq: number;
    fieldLength: number;
    docFreq: number;
    docCount: number;
    avgFieldLength: number;
    boost?: number;
  },
): number {
  return bm25Score(bm25TermWeight(params, input), input.freq, input.fieldLength);
}
