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
 * Brackets in code (fenced blocks, inline code) are no markers: `items[1]`
 * stays as written.
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
  /** Length of the backtick run that opened the fenced code block we are in (0: none). */
  private fence = 0;
  /** Length of the backtick run that opened the inline code we are in (0: none). */
  private inline = 0;
  private readonly numbers = new Map<number, number>();
  private readonly cited: Citation[] = [];

  constructor(private readonly sourceByKey: (key: number) => Source | undefined) {}

  /** Add a delta; returns the text that can be sent now (possibly ''). */
  write(delta: string): string {
    const text = this.pending + delta;
    let cut = text.length;
    const open = text.lastIndexOf('[');
    if (open >= 0 && text.indexOf(']', open) < 0 && text.length - open < MAX_MARKER && PARTIAL.test(text.slice(open)))
      cut = open;
    // A run of backticks may go on in the next delta (``` split as `` and `): it is held back whole.
    const ticks = /`+$/.exec(text.slice(0, cut));
    if (ticks) cut = ticks.index;
    this.pending = text.slice(cut);
    return this.outsideCode(text.slice(0, cut));
  }

  /** The held-back rest at the end of the answer. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return this.outsideCode(rest);
  }

  /** Cited sources in answer order. */
  citations(): Citation[] {
    return [...this.cited];
  }

  /**
   * Renumbers markers outside code only: a fenced block (a run of three or more backticks up
   * to a run at least as long) and inline code (a shorter run up to a run of the same length,
   * or the end of the line) keep their brackets, e.g. `items[1]`.
   */
  private outsideCode(text: string): string {
    if (!text.includes('`') && this.fence === 0 && this.inline === 0) return this.renumber(text);
    let out = '';
    for (const part of text.split(/(`+)/)) {
      if (part.startsWith('`')) {
        const n = part.length;
        if (this.fence > 0) {
          if (n >= this.fence) this.fence = 0;
        } else if (this.inline > 0) {
          if (n === this.inline) this.inline = 0;
        } else if (n >= 3) this.fence = n;
        else this.inline = n;
        out += part;
      } else if (this.fence > 0) {
        out += part;
      } else if (this.inline > 0) {
        const eol = part.indexOf('\n');
        if (eol < 0) {
          out += part;
        } else {
          this.inline = 0;
          out += part.slice(0, eol) + this.renumber(part.slice(eol));
        }
      } else {
        out += this.renumber(part);
      }
    }
    return out;
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
