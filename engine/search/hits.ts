/**
 * Hits as the Searcher returns them: key, score and a ref to the doc version
 * (segment, doc, segment id), with the `stored` payload read (decompressed) from
 * the segment on first access, so a page of hits whose payloads are never read
 * costs no stored block.
 */
import type { SegmentReader } from '../segment/types.ts';
import type { Hit } from '../query/types.ts';

/** A hit's stored payload, read on first access (see makeHit). */
interface LazyStored {
  reader: SegmentReader;
  doc: number;
  value: Record<string, unknown> | undefined;
}

/** Key of a hit's LazyStored (a non-enumerable own property: not compared, copied or serialised). */
const LAZY = Symbol('lazyStored');

const STORED_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: { [LAZY]: LazyStored }): Record<string, unknown> {
    const s = this[LAZY];
    return (s.value ??= s.reader.stored(s.doc));
  },
  set(this: { [LAZY]: LazyStored }, v: Record<string, unknown>): void {
    this[LAZY].value = v;
  },
};

/** The hit of doc `doc` of `r` (the snapshot's segment number `segment`). */
export function makeHit(r: SegmentReader, segment: number, doc: number, score: number): Hit {
  const hit = { key: r.key(doc), score, ref: { segment, doc, segmentId: r.id } } as Hit;
  // one accessor pair for all hits (they share their shape), the state in a hidden property
  const lazy: LazyStored = { reader: r, doc, value: undefined };
  Object.defineProperty(hit, LAZY, { value: lazy });
  Object.defineProperty(hit, 'stored', STORED_ACCESSOR);
  return hit;
}
