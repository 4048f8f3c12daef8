/**
 * Citation markers: the model cites sources by their retrieval key (`[k]`,
 * also `[k, m]`); the answer shows them renumbered by first use (`[1]`, `[2]`,
 * ...). `CitationWriter` does this on a stream of text deltas: it never emits
 * part of a marker (a trailing `[` with digits is held back until its `]`
 * arrives or it can no longer be a marker), passes every other character
 * through at once, and keeps the cited sources in answer order for the
 * `citations` field. Markers naming no known source are left as they are;
 * in a marker that also names known sources, the unknown keys are dropped
 * (a retrieval key must never show where an answer number is expected).
 */
import type { Citation, Source } from './types.ts';

/** Longest text held back waiting for the end of a possible marker. */
const MAX_MARKER = 40;
const MARKER = /\[(\d{1,4}(?:\s*,\s*\d{1,4})*)\]/g;
const PARTIAL = /^\[[\d,\s]*$/;

const MARKER_WITH_SPACE = /\s*\[\d{1,4}(?:\s*,\s*\d{1,4})*\]/g;

/** `text` without citation-like markers (footnotes such as `capital[1]` in a quoted source). */
export function withoutMarkers(text: string): string {
  return text.includes('[') ? text.replace(MARKER_WITH_SPACE, '') : text;
}

export class CitationWriter {
  private pending = '';
  private readonly numbers = new Map<number, number>();
  private readonly cited: Citation[] = [];

  constructor(private readonly sourceByKey: (key: number) => Source | undefined) {}

  /** Add a delta; returns the text that can be sent now (possibly ''). */
  write(delta: string): string {
    const text = this.pending + delta;
    let cut = text.length;
    const open = text.lastIndexOf('[');
    if (open >= 0 && text.indexOf(']', open) < 0 && text.length - open < MAX_MARKER && PARTIAL.test(text.slice(open))) cut = open;
    this.pending = text.slice(cut);
    return this.renumber(text.slice(0, cut));
  }

  /** The held-back rest at the end of the answer. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return this.renumber(rest);
  }

  /** Cited sources in answer order. */
  citations(): Citation[] {
    return [...this.cited];
  }

  private renumber(text: string): string {
    if (!text.includes('[')) return text;
    return text.replace(MARKER, (whole, list: string) => {
      const keys = list.split(',').map((k) => Number(k.trim()));
      if (!keys.some((key) => this.sourceByKey(key))) return whole;
      const shown: number[] = [];
      for (const key of keys) {
        const n = this.numberFor(key);
        if (n !== undefined && !shown.includes(n)) shown.push(n);
      }
      return shown.map((n) => `[${n}]`).join('');
    });
  }

  private numberFor(key: number): number | undefined {
    const known = this.numbers.get(key);
    if (known !== undefined) return known;
    const source = this.sourceByKey(key);
    if (!source) return undefined;
    const n = this.cited.length + 1;
    this.numbers.set(key, n);
    const c: Citation = { number: n, id: source.id, title: source.title, datasource: source.datasource };
    if (source.url) c.url = source.url;
    if (source.path_preview !== undefined) c.path_preview = source.path_preview;
    this.cited.push(c);
    return n;
  }
}
