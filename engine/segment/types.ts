/**
 * Read-side contract between the segment codec (term dictionary, postings,
 * norms, columns, stored fields) and the query layer (BM25 scorers, block-max
 * WAND / MaxScore, phrase matching, filters, highlights).
 *
 * Doc ids are segment-local, dense, starting at 0, strictly increasing in
 * every iterator. `NO_MORE_DOCS` ends an iteration.
 */
export const NO_MORE_DOCS = 0x7fffffff;

/** Per-block upper bounds used for dynamic pruning (Lucene's "impacts"). */
export interface Impact {
  /** Highest term frequency of any doc in the block... */
  freq: number;
  /** ...paired with the smallest field length (decoded norm) among docs with that freq or more. */
  norm: number;
}

export interface PostingsIterator {
  /** Current doc, -1 before the first call to nextDoc/advance, NO_MORE_DOCS at the end. */
  docID(): number;
  nextDoc(): number;
  /** First doc >= target (target > docID()). */
  advance(target: number): number;
  /** Term frequency in the current doc. */
  freq(): number;
  /** Positions of the term in the current doc, ascending (only when opened with positions). */
  positions(): Int32Array;
  /** Number of docs in the postings list (document frequency in this segment). */
  cost(): number;
  /**
   * Move the block cursor (not the doc cursor) so that it covers `target`, and
   * return the last doc id of that block (NO_MORE_DOCS when past the end).
   */
  advanceShallow(target: number): number;
  /** Impacts of the block the shallow cursor is on. */
  blockImpacts(): Impact[];
  /**
   * Optional bulk form of nextDoc() and freq(): every doc after the current one (only
   * those set in the filter bitset `bits`, when given) and its freq, written to
   * outDocs/outFreqs from index `at`; returns the index after the last written, ends on
   * NO_MORE_DOCS. The outputs must hold cost() entries from `at`.
   */
  drain?(bits: Uint32Array | null, outDocs: Int32Array, outFreqs: Int32Array, at: number): number;
}

export interface TermStats {
  /** Docs (in this segment, deleted ones included) that contain the term. */
  docFreq: number;
  /** Total occurrences of the term in the field. */
  totalTermFreq: number;
}

export interface FieldStats {
  /** Docs that have the field (deleted included). */
  docCount: number;
  /** Sum of the field lengths (deleted included); avgdl = sumTotalTermFreq / docCount. */
  sumTotalTermFreq: number;
}

export interface SegmentReader {
  /** Stable id of the segment (file name stem). */
  readonly id: string;
  /** Number of doc ids in the segment, deleted included. */
  readonly maxDoc: number;
  /** Live docs (maxDoc minus deletions of the snapshot this reader belongs to). */
  readonly numDocs: number;

  isDeleted(doc: number): boolean;

  fieldStats(field: string): FieldStats | null;
  termStats(field: string, term: string): TermStats | null;
  /** Terms of a field in sorted order, optionally from a prefix. */
  terms(field: string, prefix?: string): Iterable<string>;
  postings(field: string, term: string, withPositions: boolean): PostingsIterator | null;
  /** Decoded field length of `doc` (one-byte norm, lossy like Lucene's SmallFloat). */
  fieldLength(field: string, doc: number): number;
  /**
   * Optional fast path for scoring loops: the one-byte norms of a text field,
   * one per doc, decoded by NORM_TABLE in similarity/norms.ts (fieldLength(field, d)
   * === NORM_TABLE[norms(field)[d]]); null when the field is absent.
   */
  norms?(field: string): Uint8Array | null;

  /** Keyword column: the values of `field` for `doc` (empty when absent). */
  keywords(field: string, doc: number): readonly string[];
  /** Docs carrying `value` in keyword column `field`, ascending. */
  keywordDocs(field: string, value: string): PostingsIterator | null;
  /** Optional: the distinct values of keyword column `field` in this segment (deleted docs' included), sorted. */
  keywordValues?(field: string): readonly string[];
  /** Numeric column: the value of `field` for `doc`, or undefined. */
  numeric(field: string, doc: number): number | undefined;

  /** The document key (unique across the index among live docs). */
  key(doc: number): string;
  /** Stored fields of `doc` (decompressed on demand). */
  stored(doc: number): Record<string, unknown>;
  /**
   * Optional: stored fields `names` of `doc` (absent ones left out) read without decompressing
   * its stored block, or null when this segment cannot (then read them from stored()).
   */
  storedFields?(doc: number, names: readonly string[]): Record<string, unknown> | null;
  /** Original (unanalyzed) text fields of `doc`, for highlights and summaries (decompressed on demand). */
  text(doc: number): Record<string, string>;
  /** Language the doc was analyzed with. */
  language(doc: number): 'de' | 'en';
  /** 64-bit near-duplicate signature (SimHash) of the doc's text. */
  signature(doc: number): bigint;
  /** Optional: the signature column, signatures()[doc] === signature(doc). */
  signatures?(): BigUint64Array;
}
