/**
 * Reading docs of a Searcher's snapshot by key or by hit: the committed live
 * doc of a key with its keyword and numeric columns, whether a doc version is
 * still live, a hit's stored fields (from the display store when it holds
 * them) and a hit's keyword values.
 */
import type { Hit, StoredDoc } from '../query/types.ts';
import type { SearcherCore } from './searcher-core.ts';

/** out[name] = value, also for the name `__proto__` (an own property, as JSON.parse makes it). */
function setField(out: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

export class DocLookup {
  private segmentIds: Map<string, number> | undefined;

  constructor(private readonly core: SearcherCore) {}

  /** Committed live doc by key. */
  get(key: string): StoredDoc | null {
    const loc = this.core.locate(key);
    if (!loc) return null;
    const r = this.core.segments[loc.segment];
    const schema = this.core.options.schema;
    const keywords: Record<string, string[]> = {};
    for (const f of schema.keywordFields) {
      const v = r.keywords(f, loc.doc);
      if (v.length > 0) keywords[f] = [...v];
    }
    const numbers: Record<string, number> = {};
    for (const f of schema.numericFields) {
      const v = r.numeric(f, loc.doc);
      if (v !== undefined) numbers[f] = v;
    }
    return { key, stored: r.stored(loc.doc), keywords, numbers };
  }

  /** Whether the doc version `ref` (segment id, segment-local doc) is live in this snapshot. */
  isLive(ref: { segmentId: string; doc: number }): boolean {
    const segments = this.core.segments;
    const ids = (this.segmentIds ??= new Map(segments.map((r, i) => [r.id, i])));
    const i = ids.get(ref.segmentId);
    if (i === undefined) return false;
    const r = segments[i];
    return Number.isInteger(ref.doc) && ref.doc >= 0 && ref.doc < r.maxDoc && !r.isDeleted(ref.doc);
  }

  /**
   * Stored fields `names` of the hit's doc in this snapshot (fields it lacks left out; {} when the
   * doc is gone): the values of `hit.stored`, read from the segment's display store when it holds
   * them (schema `displayFields`), so no stored block is decompressed, else from the stored payload.
   */
  storedFields(hit: Hit, names: readonly string[]): Record<string, unknown> {
    const loc = this.core.resolve(hit);
    if (!loc) return {};
    const r = this.core.segments[loc.segment];
    const fast = r.storedFields?.(loc.doc, names);
    if (fast) return fast;
    const stored = r.stored(loc.doc);
    const out: Record<string, unknown> = {};
    for (const n of names) if (Object.prototype.hasOwnProperty.call(stored, n)) setField(out, n, stored[n]);
    return out;
  }

  /** Values of keyword column `field` of the hit's doc in this snapshot ([] when it has none or is gone). */
  keywordsOf(hit: Hit, field: string): readonly string[] {
    const loc = this.core.resolve(hit);
    return loc ? this.core.segments[loc.segment].keywords(field, loc.doc) : [];
  }
}
