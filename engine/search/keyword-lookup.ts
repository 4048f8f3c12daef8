/**
 * Keyword columns of a Searcher's snapshot read through their doc lists: the
 * distinct values carried by live docs, the live docs per value, the live docs carrying some values
 * (as a blank-query search with that keyword filter would return them), and
 * the keys of the docs carrying one value. No scoring, no stored field read.
 */
import { NO_MORE_DOCS } from '../segment/types.ts';
import { compileFilter, filterKey, validateFilter } from '../query/filter.ts';
import type { Filter, Hit } from '../query/types.ts';
import { MAX_LIMIT } from './searcher-core.ts';
import type { SearcherCore } from './searcher-core.ts';

/** Distinct values of keyword column `field` carried by at least one live doc, sorted. */
export function keywordValues(core: SearcherCore, field: string): string[] {
  const out = new Set<string>();
  for (const r of core.segments) {
    if (r.numDocs === 0) continue;
    if (r.keywordValues) {
      for (const v of r.keywordValues(field)) {
        if (out.has(v)) continue;
        const it = r.keywordDocs(field, v);
        if (!it) continue;
        for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) {
          if (!r.isDeleted(d)) {
            out.add(v);
            break;
          }
        }
      }
    } else {
      for (let d = 0; d < r.maxDoc; d++) if (!r.isDeleted(d)) for (const v of r.keywords(field, d)) out.add(v);
    }
  }
  return [...out].sort();
}

/**
 * Live docs per value of keyword column `field` (values no live doc carries are left out). Reads
 * every doc list of the column once: linear in the docs of the snapshot, so callers keep the
 * answer per generation.
 */
export function keywordCounts(core: SearcherCore, field: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (v: string, n: number) => n > 0 && out.set(v, (out.get(v) ?? 0) + n);
  for (const r of core.segments) {
    if (r.numDocs === 0) continue;
    if (!r.keywordValues) {
      for (let d = 0; d < r.maxDoc; d++) if (!r.isDeleted(d)) for (const v of r.keywords(field, d)) add(v, 1);
      continue;
    }
    for (const v of r.keywordValues(field)) {
      const it = r.keywordDocs(field, v);
      let n = 0;
      if (it) for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) if (!r.isDeleted(d)) n++;
      add(v, n);
    }
  }
  return out;
}

/**
 * Live docs carrying any of `values` in keyword column `field` and accepted by
 * `filter`, in index order (segment order, then doc id), at most `limit`: what
 * a blank-query search with that keyword filter returns, read from the
 * column's doc lists instead of enumerating every doc.
 */
export function withKeyword(
  core: SearcherCore,
  field: string,
  values: readonly string[],
  opts: { filter?: Filter; limit: number },
): Hit[] {
  const keywordFilter: Filter = { keyword: field, anyOf: [...values] };
  validateFilter(opts.filter ? { and: [keywordFilter, opts.filter] } : keywordFilter, core.options.schema);
  const limit = Math.max(0, Math.min(MAX_LIMIT, Math.floor(opts.limit)));
  const out: Hit[] = [];
  if (limit === 0) return out;
  const fkey = opts.filter ? filterKey(opts.filter) : '';
  for (let i = 0; i < core.segments.length && out.length < limit; i++) {
    const r = core.segments[i];
    if (r.numDocs === 0) continue;
    const docs: number[] = [];
    for (const v of new Set(values)) {
      const it = r.keywordDocs(field, v);
      if (it) for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) docs.push(d);
    }
    if (docs.length === 0) continue;
    docs.sort((a, b) => a - b);
    const accept = opts.filter ? compileFilter(opts.filter, fkey, r, core.cache, docs.length).matches : null;
    let prev = -1;
    for (const d of docs) {
      if (d === prev) continue;
      prev = d;
      if (r.isDeleted(d) || (accept && !accept(d))) continue;
      out.push(core.hit(core.bases[i] + d, 0));
      if (out.length >= limit) break;
    }
  }
  return out;
}

/**
 * Keys of every live doc carrying `value` in keyword column `field`, segment by segment in
 * index order, without a limit: read from the column's doc lists and the keys section, no
 * stored field decompressed. A generator, so a caller enumerating a large set holds one key at a
 * time; the snapshot stays fixed while it runs (release the searcher afterwards).
 */
export function* keysWithKeyword(core: SearcherCore, field: string, value: string): Generator<string> {
  validateFilter({ keyword: field, anyOf: [value] }, core.options.schema);
  for (const r of core.segments) {
    if (r.numDocs === 0) continue;
    const it = r.keywordDocs(field, value);
    if (!it) continue;
    for (let d = it.nextDoc(); d !== NO_MORE_DOCS; d = it.nextDoc()) if (!r.isDeleted(d)) yield r.key(d);
  }
}
