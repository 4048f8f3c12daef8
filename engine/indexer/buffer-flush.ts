/**
 * Flush encoding of the indexing buffer (segment-buffer.ts): the counting sort of its token log
 * by term (termStarts, scatterLog), terms in dictionary order (sortedTerms), each field's norms
 * and postings (fieldNorms, writeTerms), and the SimHash signatures section.
 */
import type { IntList } from '../util/growable.ts';
import { intToByte4, NORM_TABLE } from '../similarity/norms.ts';
import type { PostingsWriter } from '../postings/postings-writer.ts';
import type { TermsWriter } from '../termdict/terms-writer.ts';

/** Start of every buffer term's run in the term-sorted log (counting sort's prefix sums; length nTerms + 1). */
export function termStarts(chunks: readonly Int32Array[], lens: readonly number[], nTerms: number): Int32Array {
  const start = new Int32Array(nTerms + 1);
  for (let c = 0; c < chunks.length; c++) {
    const log = chunks[c];
    for (let i = 0, n3 = lens[c]; i < n3; i += 3) start[log[i] + 1]++;
  }
  for (let t = 0; t < nTerms; t++) start[t + 1] += start[t];
  return start;
}

/** Scatters the log's (doc, position) pairs to their terms' runs (`fill`: each run's next slot, advanced). */
export function scatterLog(
  chunks: readonly Int32Array[],
  lens: readonly number[],
  fill: Int32Array,
  sDoc: Int32Array,
  sPos: Int32Array,
): void {
  for (let c = 0; c < chunks.length; c++) {
    const log = chunks[c];
    for (let i = 0, n3 = lens[c]; i < n3; i += 3) {
      const k = fill[log[i]]++;
      sDoc[k] = log[i + 1];
      sPos[k] = log[i + 2];
    }
  }
}

/** Norm bytes of a field's doc lengths. */
export function fieldNorms(lengths: IntList, maxDoc: number): Uint8Array {
  const norms = new Uint8Array(maxDoc);
  const lens = lengths.data;
  for (let d = 0, n = Math.min(maxDoc, lengths.length); d < n; d++) norms[d] = intToByte4(lens[d]);
  return norms;
}

/** Writes the postings of a field's terms (in term order) and adds them to its terms writer. */
export function writeTerms(
  pw: PostingsWriter,
  tw: TermsWriter,
  terms: readonly string[],
  tids: Int32Array,
  start: Int32Array,
  sDoc: Int32Array,
  sPos: Int32Array,
  norms: Uint8Array,
): void {
  for (let ti = 0; ti < terms.length; ti++) {
    const tid = tids[ti];
    pw.startTerm();
    const end = start[tid + 1];
    let i = start[tid];
    while (i < end) {
      const doc = sDoc[i];
      let j = i + 1;
      while (j < end && sDoc[j] === doc) j++;
      if (j - i > 1) sortPositions(sPos, i, j);
      pw.addDoc(doc, j - i, NORM_TABLE[norms[doc]], sPos, i);
      i = j;
    }
    tw.add(terms[ti], pw.finishTerm());
  }
}

/** Sorts sPos[i, j) unless it is ascending already (it is, unless a custom analyzer's tokens were not in position order). */
function sortPositions(sPos: Int32Array, i: number, j: number): void {
  for (let k = i + 1; k < j; k++) {
    if (sPos[k] < sPos[k - 1]) {
      sPos.subarray(i, j).sort();
      return;
    }
  }
}

/**
 * A field's terms in JS string order with their buffer term ids, sorting numbers rather than
 * strings: a key of the first 4 UTF-16 units (7 bits each; a unit >= 127 counts as 127 and ends
 * the key, so a smaller key always means a smaller string) above the term's index, then string
 * comparisons only inside runs of equal keys.
 */
export function sortedTerms(names: readonly string[], ids: readonly number[]): { terms: string[]; tids: Int32Array } {
  const n = names.length;
  const terms: string[] = new Array(n);
  const tids = new Int32Array(n);
  if (n >= 1 << 24) {
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (names[a] < names[b] ? -1 : 1));
    for (let i = 0; i < n; i++) {
      terms[i] = names[order[i]];
      tids[i] = ids[order[i]];
    }
    return { terms, tids };
  }
  const keys = prefixKeys(names);
  keys.sort();
  for (let i = 0; i < n; i++) {
    const idx = keys[i] % 16777216;
    terms[i] = names[idx];
    tids[i] = ids[idx];
  }
  sortEqualKeyRuns(keys, terms, tids);
  return { terms, tids };
}

/** Per term: its prefix key (first 4 UTF-16 units, 7 bits each) times 2^24, plus its index. */
function prefixKeys(names: readonly string[]): Float64Array {
  const n = names.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = names[i];
    const len = t.length;
    let key = 0;
    let j = 0;
    for (; j < 4 && j < len; j++) {
      const c = t.charCodeAt(j);
      if (c >= 127) {
        key = key * 128 + 127;
        j++;
        break;
      }
      key = key * 128 + c;
    }
    for (; j < 4; j++) key *= 128;
    keys[i] = key * 16777216 + i;
  }
  return keys;
}

/** Runs of equal prefix keys (usually a few terms): insertion sort by the whole string. */
function sortEqualKeyRuns(keys: Float64Array, terms: string[], tids: Int32Array): void {
  const n = keys.length;
  let i = 0;
  while (i < n) {
    const prefix = Math.floor(keys[i] / 16777216);
    let j = i + 1;
    while (j < n && Math.floor(keys[j] / 16777216) === prefix) j++;
    for (let x = i + 1; x < j; x++) {
      const t = terms[x];
      const id = tids[x];
      let y = x - 1;
      while (y >= i && terms[y] > t) {
        terms[y + 1] = terms[y];
        tids[y + 1] = tids[y];
        y--;
      }
      terms[y + 1] = t;
      tids[y + 1] = id;
    }
    i = j;
  }
}

/** True when the platform stores the low 32 bits of a 64-bit word first. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Signatures from (high, low) halves per doc, without a BigInt per doc. */
export function signatures(halves: Int32Array, maxDoc: number): BigUint64Array {
  const sigs = new BigUint64Array(maxDoc);
  const words = new Int32Array(sigs.buffer);
  const hi = LITTLE_ENDIAN ? 1 : 0;
  const lo = 1 - hi;
  for (let d = 0; d < maxDoc; d++) {
    words[2 * d + hi] = halves[2 * d];
    words[2 * d + lo] = halves[2 * d + 1];
  }
  return sigs;
}
