/**
 * Writer for extraction output: appends text blocks, records section boundaries
 * (pages, slides, sheets, parts) as offsets into the final text, and stops at the
 * output-length limit, marking the result as truncated.
 */
import type { Extraction, Section, SectionKind } from './types.ts';
import { detectLanguage } from './language.ts';

export class TextBuilder {
  private parts: string[] = [];
  private length = 0;
  private readonly sections: Section[] = [];
  private open: { kind: SectionKind; label?: string; start: number } | null = null;
  truncated = false;

  constructor(private readonly maxChars: number) {}

  /** Current length of the text written so far. */
  get size(): number {
    return this.length;
  }

  /** Appends text, cutting it at the output limit. Returns false once the limit is reached. */
  append(text: string): boolean {
    if (this.truncated) return false;
    text = stripSoftHyphens(text);
    if (!text) return true;
    const room = this.maxChars - this.length;
    if (text.length > room) {
      this.parts.push(text.slice(0, Math.max(0, room)));
      this.length = this.maxChars;
      this.truncated = true;
      return false;
    }
    this.parts.push(text);
    this.length += text.length;
    return true;
  }

  /** Appends a block separated from the previous one by a blank line. */
  block(text: string): boolean {
    const t = text.trim();
    if (!t) return !this.truncated;
    if (this.length > 0 && !(this.open && this.open.start === this.length)) this.append('\n\n');
    return this.append(t);
  }

  /** Starts a section; the previous open section ends where this one starts. */
  startSection(kind: SectionKind, label?: string): void {
    this.endSection();
    if (this.length > 0) this.append('\n\n');
    this.open = { kind, label, start: this.length };
  }

  endSection(): void {
    if (!this.open) return;
    const s: Section = { kind: this.open.kind, start: this.open.start, end: this.length };
    if (this.open.label !== undefined) s.label = this.open.label;
    this.sections.push(s);
    this.open = null;
  }

  /** Final extraction; `extra` carries format metadata (title, author, pageCount...). */
  finish(extra: Partial<Extraction> = {}): Extraction {
    this.endSection();
    const text = this.parts.join('');
    const out: Extraction = { text, sections: this.sections, ...extra };
    if (this.truncated) out.truncated = true;
    if (out.language === undefined) {
      const lang = detectLanguage(text);
      if (lang) out.language = lang;
    }
    return clean(out);
  }
}

/**
 * Removes soft hyphens (U+00AD, Word's optional hyphen, HTML &shy;): invisible inside a word, but the
 * search tokenizer would split the word there.
 */
export const stripSoftHyphens = (s: string): string => (s.indexOf('\u00ad') >= 0 ? s.replace(/\u00ad/g, '') : s);

/** Drops undefined and empty metadata fields so results compare and serialise cleanly. */
function clean(e: Extraction): Extraction {
  for (const k of ['title', 'author'] as const) {
    const v = e[k];
    if (v === undefined) delete e[k];
    else {
      const t = stripSoftHyphens(v).replace(/\s+/g, ' ').trim();
      if (t) e[k] = t;
      else delete e[k];
    }
  }
  for (const k of Object.keys(e) as (keyof Extraction)[]) if (e[k] === undefined) delete e[k];
  return e;
}

/** Builds an extraction from one plain string (no sections). */
export function plainExtraction(text: string, maxChars: number, extra: Partial<Extraction> = {}): Extraction {
  const b = new TextBuilder(maxChars);
  b.append(text);
  return b.finish(extra);
}
