/**
 * Segment merger: writes one new segment holding the live docs of several source segments
 * (deleted docs are purged), in source order. Term dictionaries are k-way merged, postings
 * re-encoded with remapped doc ids, columns, keys, signatures and stored docs copied. With
 * `displayFields`, the merged segment gets a display store of those stored fields (records copied
 * from sources with the same display fields, else made from the stored payloads).
 * The work runs in slices of about SLICE_MS, yielding to the event loop in between, so commits,
 * writers and searchers keep running (a commit is a chain of I/O steps: each one waits for the
 * slice in progress); `shouldStop()` aborts it (the caller discards the result).
 */
import type { SegmentCore } from '../segment/segment-reader.ts';
import { isDeletedIn } from '../segment/segment-reader.ts';
import { SegmentWriter } from '../segment/segment-writer.ts';
import type { FlushedSegment } from '../indexer/segment-buffer.ts';
import { TermsWriter } from '../termdict/terms-writer.ts';
import { BlockPostingsIterator } from '../postings/postings-reader.ts';
import type { TermEntry } from '../termdict/terms-reader.ts';
import { KeywordColumnWriter } from '../columns/columns-writer.ts';
import { writeKeys } from '../columns/keys.ts';
import { NORM_TABLE } from '../similarity/norms.ts';
import { StoredWriter } from '../store/stored-writer.ts';
import { NO_MORE_DOCS } from '../segment/types.ts';
import { EngineError } from '../errors.ts';

export interface MergeSource {
  core: SegmentCore;
  /** Deletions at merge start (frozen). */
  bits: Uint8Array;
}

export interface MergeOptions {
  /** Stored fields kept in the merged segment's display store (store/display-store.ts). Default none. */
  displayFields?: readonly string[];
}

export interface MergeResult {
  segment: FlushedSegment;
  /** Per source: old doc -> new doc, -1 for purged docs. */
  docMaps: Int32Array[];
}

/** Longest stretch of merge work between two yields to the event loop. */
const SLICE_MS = 8;
/** Units of work (postings, docs) between two looks at the clock. */
const CHECK_EVERY = 2_000;

export async function mergeSegments(
  id: string,
  sources: readonly MergeSource[],
  shouldStop: () => boolean = () => false,
  options: MergeOptions = {},
): Promise<MergeResult> {
  let work = 0;
  let sliceStart = performance.now();
  const tick = async (n: number) => {
    work += n;
    if (work < CHECK_EVERY) return;
    work = 0;
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise<void>((r) => setImmediate(r));
    sliceStart = performance.now();
    if (shouldStop()) throw new EngineError('CLOSED', 'merge aborted');
  };
  const docMaps: Int32Array[] = [];
  let maxDoc = 0;
  for (const { core, bits } of sources) {
    const map = new Int32Array(core.maxDoc);
    for (let d = 0; d < core.maxDoc; d++) map[d] = isDeletedIn(bits, d) ? -1 : maxDoc++;
    docMaps.push(map);
  }
  const w = new SegmentWriter(id, maxDoc);
  const pw = w.postings;

  const fieldNames = [...new Set(sources.flatMap((s) => s.core.textFields()))].sort();
  for (const field of fieldNames) {
    const norms = new Uint8Array(maxDoc);
    sources.forEach(({ core }, i) => {
      const src = core.norms(field);
      if (!src) return;
      const map = docMaps[i];
      for (let d = 0; d < core.maxDoc; d++) if (map[d] >= 0) norms[map[d]] = src[d];
    });
    let docCount = 0;
    for (let d = 0; d < maxDoc; d++) if (norms[d] !== 0) docCount++;
    let sumTtf = 0;
    const tw = new TermsWriter();
    const iters = sources.map(({ core }) => core.terms(field)?.entries()[Symbol.iterator]() ?? null);
    const heads: (TermEntry | null)[] = iters.map((it) => (it ? next(it) : null));
    for (;;) {
      let min: string | null = null;
      for (const h of heads) if (h && (min === null || h.term < min)) min = h.term;
      if (min === null) break;
      pw.startTerm();
      let added = 0;
      for (let i = 0; i < sources.length; i++) {
        const h = heads[i];
        if (!h || h.term !== min) continue;
        const core = sources[i].core;
        const map = docMaps[i];
        const it = new BlockPostingsIterator(core.pdoc, core.ppos, h, true);
        for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
          const nd = map[d];
          if (nd < 0) continue;
          const freq = it.freq();
          pw.addDoc(nd, freq, NORM_TABLE[norms[nd]], it.positions(), 0);
          sumTtf += freq;
          added++;
        }
        heads[i] = next(iters[i]!);
      }
      const meta = pw.finishTerm();
      if (added > 0) tw.add(min, meta);
      await tick(added + 1);
    }
    w.addTextField(field, norms, tw, { docCount, sumTotalTermFreq: sumTtf });
  }

  const kwNames = [...new Set(sources.flatMap((s) => s.core.meta.keywordFields))].sort();
  for (const field of kwNames) {
    const col = new KeywordColumnWriter();
    for (let i = 0; i < sources.length; i++) {
      const src = sources[i].core.keywordColumn(field);
      if (!src) continue;
      const map = docMaps[i];
      for (let d = 0; d < map.length; d++)
        if (map[d] >= 0) {
          const vals = src.valuesOf(d);
          if (vals.length) col.add(map[d], vals);
        }
      await tick(map.length);
    }
    w.addKeywordColumn(field, col.finish(maxDoc));
  }

  const numNames = [...new Set(sources.flatMap((s) => s.core.meta.numericFields))].sort();
  for (const field of numNames) {
    const out = new Float64Array(maxDoc).fill(NaN);
    sources.forEach(({ core }, i) => {
      const src = core.numericColumn(field);
      if (!src) return;
      const map = docMaps[i];
      for (let d = 0; d < map.length; d++) if (map[d] >= 0) out[map[d]] = src[d];
    });
    w.addNumericColumn(field, out);
  }

  const keys: string[] = new Array(maxDoc);
  const sigs = new BigUint64Array(maxDoc);
  const stored = new StoredWriter({ displayFields: options.displayFields });
  const fields = stored.displayFields.join('\u0001');
  for (let i = 0; i < sources.length; i++) {
    const core = sources[i].core;
    const map = docMaps[i];
    const keysReader = core.keys();
    const srcSigs = core.signatures();
    const storedReader = core.stored();
    const srcDisplay = fields !== '' ? core.display() : null;
    const copyDisplay = srcDisplay !== null && srcDisplay.fields.join('\u0001') === fields ? srcDisplay : null;
    for (let d = 0; d < map.length; d++) {
      const nd = map[d];
      if (nd < 0) continue;
      keys[nd] = keysReader.key(d);
      sigs[nd] = srcSigs[d];
      stored.add(storedReader.doc(d), copyDisplay?.record(d));
      if ((nd & 63) === 0) await tick(64 * 8); // a stored doc costs about as much as 8 postings
    }
  }
  w.setKeys(writeKeys(keys));
  w.setSignatures(sigs);
  w.setStored(await stored.finish());
  if (shouldStop()) throw new EngineError('CLOSED', 'merge aborted');
  return { segment: w.finish(), docMaps };
}

function next(it: Iterator<TermEntry>): TermEntry | null {
  const r = it.next();
  return r.done ? null : r.value;
}
