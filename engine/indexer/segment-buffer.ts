/**
 * In-memory indexing buffer: documents added since the last flush, inverted in RAM with
 * flat typed arrays (one (term, doc, position) triple per token, no per-posting objects),
 * then written as one immutable segment by `flush()` (a counting sort by term id gives
 * every term's postings in doc order).
 *
 * The token log is a list of fixed-size chunks taken from a per-thread pool (no copy when it
 * grows, nothing held by an empty buffer); the chunks go back to the pool as soon as the flush
 * has sorted them. That pool and the other arrays reused across flushes are in buffer-pools.ts;
 * the flush's sorting and encoding steps in buffer-flush.ts.
 *
 * Deletions of buffered docs are flags on the buffer; they become the new segment's
 * initial deletion bitset. Finding a key's buffered doc is the caller's job (IndexWriter keeps
 * one key map over all its buffers, using each buffer's firstSeq).
 */
import type { Token, Language } from '../analysis/types.ts';
import { termStreamOf, type TermStream } from '../analysis/analyzer.ts';
import { IntList, FloatList } from '../util/growable.ts';
import { KeywordColumnWriter } from '../columns/columns-writer.ts';
import { TermsWriter } from '../termdict/terms-writer.ts';
import { SegmentWriter, type SegmentChunks } from '../segment/segment-writer.ts';
import {
  EMPTY_LOG,
  giveChunk,
  giveLog,
  growRegistryMap,
  growTermState,
  spareArrays,
  takeChunk,
  takeLog,
  TERM_STATE,
} from './buffer-pools.ts';
import { fieldNorms, scatterLog, signatures, sortedTerms, termStarts, writeTerms } from './buffer-flush.ts';
import { writeKeys } from '../columns/keys.ts';
import { StoredWriter, type StoredBlocks } from '../store/stored-writer.ts';
import { SimHashBuilder, termHash } from '../duplicates/simhash.ts';

interface FieldBuffer {
  name: string;
  /** The field's terms in order of first occurrence, and their buffer term ids. */
  terms: string[];
  tids: number[];
  /** term -> buffer term id, built only once streams of a second registry epoch arrive (rare). */
  termIds: Map<string, number> | null;
  /** Analyzer registry id -> buffer term id + 1 (0 = not seen yet), valid for registry epoch `epoch`. */
  byRegistryId: Int32Array;
  epoch: number;
  lengths: IntList;
  docCount: number;
  sumTotalTermFreq: number;
}

/**
 * xxh64 halves of analyzer registry ids (shared by all buffers; valid for one registry epoch),
 * so a term is hashed once per epoch rather than once per segment.
 */
let hashEpoch = -1;
let hashKnown = new Uint8Array(0);
let hashHi = new Int32Array(0);
let hashLo = new Int32Array(0);

/** A document ready for the buffer: validated, analyzed per text field. */
export interface AnalyzedDoc {
  key: string;
  language: Language;
  text: Record<string, string>;
  tokens: Record<string, Token[]>;
  keywords: Record<string, string[]>;
  numbers: Record<string, number>;
  stored: Record<string, unknown>;
}

/** The indexing path's form of an AnalyzedDoc: terms as analyzer term streams (analyzeTerms). */
export type StreamedDoc = Omit<AnalyzedDoc, 'tokens'> & { terms: Record<string, TermStream> };

export type FlushedSegment = SegmentChunks;

/** A flush in progress (SegmentBuffer.flush): complete once its stored blocks are compressed. */
export interface FlushTask {
  /** The segment if it is complete by now (finished compressions are collected first), else null. */
  poll(): FlushedSegment | null;
  /** Resolves with the segment (the same object poll returns). */
  done: Promise<FlushedSegment>;
}

export class SegmentBuffer {
  readonly keys: string[] = [];
  /** Caller-assigned sequence number of this buffer's doc 0 (doc id = seq - firstSeq). */
  readonly firstSeq: number;
  /** Deletion flags of buffered docs (1 = deleted). */
  deleted = new Uint8Array(1024);
  delCount = 0;
  private readonly fields = new Map<string, FieldBuffer>();
  /** Buffer terms (all fields). */
  private termCount = 0;
  /**
   * Per buffer term, TERM_STATE ints: the last doc holding it, its frequency in that doc and its
   * xxh64 halves (SimHash), side by side so a token touches one cache line.
   */
  private termState = new IntList(4 * 1024);
  /** Token log: (termId, doc, position) triples; `log` is the chunk being filled, `logLen` its used ints. */
  private log: Int32Array = EMPTY_LOG;
  private logLen = 0;
  /** Filled chunks (before `log`) and their used ints. */
  private readonly fullChunks: Int32Array[] = [];
  private readonly fullLens: number[] = [];
  private tokens = 0;
  private readonly keywordCols = new Map<string, KeywordColumnWriter>();
  private readonly numericCols = new Map<string, FloatList>();
  private sigs = new IntList(2048);
  private readonly stored: StoredWriter;
  private readonly docTerms = new IntList(256);
  private readonly simhash = new SimHashBuilder();
  /** Approximate RAM use in bytes (drives flushing). */
  bytesUsed = 0;

  /**
   * @param options.displayFields stored fields also kept in the segment's display store (schema.displayFields).
   * @param options.firstSeq see firstSeq (default 0).
   */
  constructor(options: { displayFields?: readonly string[]; firstSeq?: number } = {}) {
    this.firstSeq = options.firstSeq ?? 0;
    this.stored = new StoredWriter({ displayFields: options.displayFields });
  }

  get numDocs(): number {
    return this.keys.length;
  }

  get tokenCount(): number {
    return this.tokens;
  }

  /** Starts a new log chunk with room for `need` ints. */
  private nextChunk(need: number): void {
    if (this.logLen > 0) {
      this.fullChunks.push(this.log);
      this.fullLens.push(this.logLen);
    } else if (this.log !== EMPTY_LOG) {
      giveChunk(this.log);
    }
    this.log = takeChunk(need);
    this.logLen = 0;
  }

  /** Adds a doc; returns its buffer-local id. The caller deletes older copies of the key first. */
  add(doc: AnalyzedDoc | StreamedDoc): number {
    const id = this.keys.length;
    this.keys.push(doc.key);
    if (id >= this.deleted.length * 8) {
      const next = new Uint8Array(this.deleted.length * 2);
      next.set(this.deleted);
      this.deleted = next;
    }
    const docTerms = this.docTerms;
    docTerms.length = 0;
    const streams = 'terms' in doc ? doc.terms : tokenStreams(doc.tokens);
    for (const name in streams) {
      const stream = streams[name];
      if (stream.count > 0) this.invertField(this.field(name), stream, id);
    }
    this.addSignature();
    for (const name in doc.keywords) {
      let col = this.keywordCols.get(name);
      if (!col) this.keywordCols.set(name, (col = new KeywordColumnWriter()));
      col.add(id, doc.keywords[name]);
    }
    for (const name in doc.numbers) {
      let col = this.numericCols.get(name);
      if (!col) this.numericCols.set(name, (col = new FloatList(256, NaN)));
      col.set(id, doc.numbers[name]);
    }
    const payloadLength = this.stored.addPayload(doc.language, doc.text, doc.stored);
    this.bytesUsed += payloadLength + 64 + doc.key.length * 2;
    return id;
  }

  /** Appends a field's terms of doc `id` to the token log and counts them into the doc's terms. */
  private invertField(f: FieldBuffer, stream: TermStream, id: number): void {
    const nt = stream.count;
    const strings = stream.strings;
    if (f.epoch !== stream.epoch) this.changeEpoch(f, stream.epoch);
    if (f.byRegistryId.length < strings.length) f.byRegistryId = growRegistryMap(f.byRegistryId, strings.length);
    const byId = f.byRegistryId;
    const ids = stream.ids;
    const positions = stream.positions;
    if (this.logLen + 3 * nt > this.log.length) this.nextChunk(3 * nt);
    const log = this.log;
    const docTerms = this.docTerms;
    let p = this.logLen;
    let st = this.termState.data;
    let length = 0;
    let lastPos = -1;
    for (let i = 0; i < nt; i++) {
      const rid = ids[i];
      const pos = positions[i];
      let tid = byId[rid] - 1;
      if (tid < 0) {
        tid = this.termOf(f, strings[rid], rid, stream.epoch);
        byId[rid] = tid + 1;
        st = this.termState.data;
      }
      log[p] = tid;
      log[p + 1] = id;
      log[p + 2] = pos;
      p += 3;
      if (pos !== lastPos) {
        length++;
        lastPos = pos;
      }
      const s = tid * TERM_STATE;
      if (st[s] !== id) {
        st[s] = id;
        st[s + 1] = 1;
        docTerms.push(tid);
      } else {
        st[s + 1]++;
      }
    }
    this.logLen = p;
    this.tokens += nt;
    f.lengths.set(id, length);
    f.docCount++;
    f.sumTotalTermFreq += nt;
  }

  /** Appends the SimHash signature of the doc whose terms are in docTerms. */
  private addSignature(): void {
    const sh = this.simhash;
    sh.reset();
    const st = this.termState.data;
    const docTerms = this.docTerms.data;
    for (let i = 0, n = this.docTerms.length; i < n; i++) {
      const s = docTerms[i] * TERM_STATE;
      sh.add(st[s + 2], st[s + 3], st[s + 1]);
    }
    sh.finishInto(this.sigs);
  }

  /** Field `f` now receives streams of registry `epoch`: registry ids are looked up by term again. */
  private changeEpoch(f: FieldBuffer, epoch: number): void {
    f.byRegistryId.fill(0);
    f.epoch = epoch;
    if (f.terms.length > 0 && f.termIds === null) {
      f.termIds = new Map();
      for (let i = 0; i < f.terms.length; i++) f.termIds.set(f.terms[i], f.tids[i]);
    }
  }

  /** Buffer term id of `term` (registry id `rid` of `epoch`) in field `f`, new unless an older epoch had it. */
  private termOf(f: FieldBuffer, term: string, rid: number, epoch: number): number {
    const known = f.termIds === null ? undefined : f.termIds.get(term);
    return known === undefined ? this.newTerm(f, term, rid, epoch) : known;
  }

  /** Marks buffered doc `id` deleted; returns true when it was live. */
  deleteDoc(id: number): boolean {
    const bit = 1 << (id & 7);
    if (this.deleted[id >>> 3] & bit) return false;
    this.deleted[id >>> 3] |= bit;
    this.delCount++;
    return true;
  }

  /** Buffered docs carrying keyword `value` in `field`. */
  docsWithKeyword(field: string, value: string): number[] {
    return this.keywordCols.get(field)?.docsWithValue(value) ?? [];
  }

  /** Deletion bitset sized for the segment (copy). */
  deletionBits(): Uint8Array {
    return this.deleted.slice(0, (this.keys.length + 7) >>> 3);
  }

  private field(name: string): FieldBuffer {
    let f = this.fields.get(name);
    if (!f) {
      f = {
        name,
        terms: [],
        tids: [],
        termIds: null,
        byRegistryId: new Int32Array(0),
        epoch: -1,
        lengths: new IntList(1024),
        docCount: 0,
        sumTotalTermFreq: 0,
      };
      this.fields.set(name, f);
    }
    return f;
  }

  /** A new buffer term (registry id `rid` of registry `epoch`). */
  private newTerm(f: FieldBuffer, term: string, rid: number, epoch: number): number {
    const tid = this.termCount++;
    f.terms.push(term);
    f.tids.push(tid);
    if (f.termIds !== null) f.termIds.set(term, tid);
    const state = this.termState;
    if (state.data.length < state.length + TERM_STATE) growTermState(state);
    const st = state.data;
    const s = state.length;
    state.length = s + TERM_STATE;
    st[s] = -1;
    st[s + 1] = 0;
    if (epoch < hashEpoch) {
      // a stream from an older registry (rare): hash without the cache
      const [hi, lo] = termHash(term);
      st[s + 2] = hi | 0;
      st[s + 3] = lo | 0;
    } else {
      if (epoch !== hashEpoch) {
        hashEpoch = epoch;
        hashKnown = new Uint8Array(0);
      }
      if (rid >= hashKnown.length) growHashCache(rid + 1);
      if (hashKnown[rid] === 0) cacheHash(term, rid);
      st[s + 2] = hashHi[rid];
      st[s + 3] = hashLo[rid];
    }
    this.bytesUsed += term.length * 2 + 120;
    return tid;
  }

  /**
   * Encodes the buffer as segment `id`. The CPU-heavy part runs synchronously; the stored-field
   * compression running on the thread pool completes later: the task's `poll()` returns the
   * segment as soon as it has (without waiting), `done` resolves with it. The buffer's token log
   * is released; keys and keyword lists stay for deletions until the segment replaces it.
   */
  flush(id: string): FlushTask {
    const maxDoc = this.keys.length;
    const maps: Int32Array[] = [];
    for (const f of this.fields.values()) {
      maps.push(f.byRegistryId);
      f.byRegistryId = new Int32Array(0); // no more adds
    }
    const w = new SegmentWriter(id, maxDoc, { tokens: this.tokens, terms: this.termCount });
    this.writePostings(w, maxDoc);
    for (const [name, col] of [...this.keywordCols].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      w.addKeywordColumn(name, col.finish(maxDoc));
    for (const [name, col] of [...this.numericCols].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      w.addNumericColumn(name, col.toArray(maxDoc));
    w.setKeys(writeKeys(this.keys));
    w.setSignatures(signatures(this.sigs.data, maxDoc));
    this.releaseTerms(maps);
    const stored = this.stored;
    let segment: FlushedSegment | null = null;
    const complete = (blocks: StoredBlocks): FlushedSegment => {
      if (segment === null) {
        w.setStored(blocks);
        segment = w.finish();
      }
      return segment;
    };
    return {
      poll: () => {
        if (segment !== null) return segment;
        let blocks: StoredBlocks | null = null;
        try {
          blocks = stored.tryFinish();
        } catch {
          return null; // a failed block: `done` rejects with the error
        }
        return blocks ? complete(blocks) : null;
      },
      done: stored.finish().then(complete),
    };
  }

  /**
   * Drops what only adds and the postings needed (terms, per-term arrays, lengths, signatures):
   * a sealed buffer waiting for its stored blocks (possibly across many more adds to the next
   * buffer, when the caller adds in a synchronous loop) keeps only what deletions use.
   */
  private releaseTerms(maps: Int32Array[]): void {
    spareArrays(this.termState.data, maps);
    this.termCount = 0;
    this.termState = new IntList(16);
    this.sigs = new IntList(16);
    this.fields.clear();
  }

  private writePostings(w: SegmentWriter, maxDoc: number): void {
    const nTerms = this.termCount;
    const n = this.tokens;
    const chunks = this.fullChunks;
    const lens = this.fullLens;
    if (this.logLen > 0) {
      chunks.push(this.log);
      lens.push(this.logLen);
    } else if (this.log !== EMPTY_LOG) giveChunk(this.log);
    this.log = EMPTY_LOG;
    this.logLen = 0;
    const start = termStarts(chunks, lens, nTerms);
    const sorted = takeLog(2 * n);
    const sPos = sorted.subarray(n, 2 * n);
    const sDoc = sorted.subarray(0, n);
    scatterLog(chunks, lens, start.slice(0, nTerms), sDoc, sPos);
    for (const c of chunks) giveChunk(c);
    chunks.length = 0;
    lens.length = 0;
    const names = [...this.fields.keys()].sort();
    for (const name of names) {
      const f = this.fields.get(name)!;
      const norms = fieldNorms(f.lengths, maxDoc);
      const { terms, tids } = sortedTerms(f.terms, f.tids);
      const tw = new TermsWriter();
      writeTerms(w.postings, tw, terms, tids, start, sDoc, sPos, norms);
      w.addTextField(name, norms, tw, { docCount: f.docCount, sumTotalTermFreq: f.sumTotalTermFreq });
    }
    giveLog(sorted);
  }
}

/** Hashes `term` into the shared cache at registry id `rid`. */
function cacheHash(term: string, rid: number): void {
  const [hi, lo] = termHash(term);
  hashHi[rid] = hi | 0;
  hashLo[rid] = lo | 0;
  hashKnown[rid] = 1;
}

function growHashCache(min: number): void {
  const cap = Math.max(min + (min >>> 1), 4096);
  const known = new Uint8Array(cap);
  known.set(hashKnown);
  const hi = new Int32Array(cap);
  hi.set(hashHi.subarray(0, Math.min(hashHi.length, cap)));
  const lo = new Int32Array(cap);
  lo.set(hashLo.subarray(0, Math.min(hashLo.length, cap)));
  hashKnown = known;
  hashHi = hi;
  hashLo = lo;
}

function tokenStreams(tokens: Record<string, Token[]>): Record<string, TermStream> {
  const out: Record<string, TermStream> = {};
  for (const name in tokens) out[name] = termStreamOf(tokens[name]);
  return out;
}
