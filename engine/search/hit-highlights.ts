/**
 * Highlights of a Searcher's hits: the best passages of a hit's text fields
 * for a query (highlight/passages.ts), weighted by the idf of the query's
 * terms in this snapshot, with the weights of the last query kept (the hits of
 * one page are highlighted with the same query).
 */
import type { Language } from '../analysis/types.ts';
import { bm25Idf } from '../similarity/bm25.ts';
import { highlightText } from '../highlight/passages.ts';
import { graphemeFloor } from '../highlight/graphemes.ts';
import type { HighlightOptions } from '../highlight/passages.ts';
import type { Hit, ParsedQuery, Passage } from '../query/types.ts';
import type { SearcherCore } from './searcher-core.ts';

export class HitHighlighter {
  /** The term weights of the last highlighted (query, field); see termWeights. */
  private lastWeights: {
    query: ParsedQuery;
    text: string;
    clauses: number;
    byField: Map<string, Map<string, number>>;
  } | null = null;

  constructor(private readonly core: SearcherCore) {}

  /** Best passages of the hit's text fields for `query` (see highlight/passages.ts). */
  highlight(
    hit: Hit,
    query: ParsedQuery | string,
    opts: Partial<HighlightOptions> & { fields?: string[]; language?: Language } = {},
  ): Passage[] {
    const core = this.core;
    const loc = core.resolve(hit);
    if (!loc) return [];
    const parsed = typeof query === 'string' ? core.parse(query, opts.language ?? 'de') : query;
    const r = core.segments[loc.segment];
    const texts = r.text(loc.doc);
    const lang = r.language(loc.doc);
    const maxPassages = opts.maxPassages ?? 3;
    const all: Passage[] = [];
    for (const field of opts.fields ?? core.fields.map((f) => f.name)) {
      const text = texts[field];
      if (typeof text !== 'string' || text.length === 0) continue;
      const weights = this.termWeights(parsed, field);
      const head = text.slice(0, graphemeFloor(text, opts.maxAnalyzedChars ?? 50000));
      all.push(...highlightText(field, head, core.analyzeShared(head, lang), weights, { ...opts, maxPassages }));
    }
    if (all.length <= maxPassages) return all;
    const keep = new Set([...all].sort((a, b) => b.score - a.score).slice(0, maxPassages));
    return all.filter((p) => keep.has(p));
  }

  /** idf of each query term in `field` (compound parts and phrase terms included, excluded terms not). */
  private termWeights(q: ParsedQuery, field: string): Map<string, number> {
    // The hits of one search are highlighted with the same parsed query: keep its weights.
    let last = this.lastWeights;
    if (last === null || last.query !== q || last.text !== q.text || last.clauses !== q.clauses.length) {
      last = this.lastWeights = { query: q, text: q.text, clauses: q.clauses.length, byField: new Map() };
    }
    let weights = last.byField.get(field);
    if (weights === undefined) last.byField.set(field, (weights = this.computeTermWeights(q, field)));
    return weights;
  }

  private computeTermWeights(q: ParsedQuery, field: string): Map<string, number> {
    const stats = this.core.stats;
    const fs = stats.field(field);
    const out = new Map<string, number>();
    const add = (t: string) => {
      const df = stats.docFreq(field, t);
      if (df > 0 && !out.has(t)) out.set(t, bm25Idf(df, fs.docCount));
    };
    for (const c of q.clauses) {
      if (c.occur === 'mustNot') continue;
      if (c.kind === 'word') [...c.word.terms, ...c.word.parts].forEach(add);
      else c.slots.forEach((s) => s.terms.forEach(add));
    }
    return out;
  }
}
