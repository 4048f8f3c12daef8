/**
 * Answer text as DOM nodes: a small, safe Markdown subset — paragraphs (line
 * breaks kept), bullet and numbered lists, block quotes, fenced code,
 * headings (shown bold), inline code, bold, links to http(s) addresses, and
 * citation markers `[n]` turned into elements by the caller (`CiteFn`).
 * Everything else is text. Only createElement, text nodes and attributes are
 * used: no HTML string ever reaches the page (the CSP's Trusted Types forbid it).
 *
 * `StreamingText` renders a growing text: blocks before the last blank line
 * outside a code fence are final and rendered once; only the open block at
 * the end is rendered again on each delta, so a chunk costs the size of the
 * current paragraph, not of the whole answer.
 */
import { el } from './text.ts';

/** The element for citation `n`, or null to keep the marker as text. */
export type CiteFn = (n: number) => HTMLElement | null;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}\s+(.*)$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^ {0,3}(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const INLINE =
  /`([^`\n]+)`|\*\*(?=\S)([^\n]*?\S)\*\*|\[(\d{1,4})\]|\[([^\]\n]{1,500})\]\((https?:\/\/[^\s()<>]{1,2000})\)/g;

function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** Inline Markdown of `text` appended to `parent`. */
export function appendInline(parent: Node & ParentNode, text: string, cite: CiteFn): void {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) {
      parent.append(el('code', undefined, m[1]));
    } else if (m[2] !== undefined) {
      const strong = el('strong');
      appendInline(strong, m[2], cite);
      parent.append(strong);
    } else if (m[3] !== undefined) {
      parent.append(cite(Number(m[3])) ?? m[0]);
    } else {
      const href = safeHref(m[5]);
      if (!href) {
        parent.append(m[0]);
        continue;
      }
      const a = el('a', undefined, m[4]);
      a.href = href;
      a.rel = 'noopener noreferrer';
      parent.append(a);
    }
  }
  if (last < text.length) parent.append(text.slice(last));
}

/** Lines joined with <br> between them. */
function appendLines(parent: HTMLElement, lines: string[], cite: CiteFn): void {
  lines.forEach((line, i) => {
    if (i > 0) parent.append(el('br'));
    appendInline(parent, line, cite);
  });
}

const startsBlock = (line: string) => FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || ITEM.test(line);

/** Block Markdown of `text` as nodes. */
export function renderMarkdown(text: string, cite: CiteFn): Node[] {
  const lines = text.split(/\r?\n/);
  const out: Node[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) body.push(lines[i]);
      i++;
      const pre = el('pre');
      pre.append(el('code', undefined, body.join('\n')));
      out.push(pre);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const p = el('p', 'md-heading');
      const strong = el('strong');
      appendInline(strong, heading[1], cite);
      p.append(strong);
      out.push(p);
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) inner.push(lines[i].replace(QUOTE, ''));
      const quote = el('blockquote');
      quote.append(...renderMarkdown(inner.join('\n'), cite));
      out.push(quote);
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      const list = el(ordered ? 'ol' : 'ul');
      if (ordered && item[2] !== '1') (list as HTMLOListElement).start = Number(item[2]);
      while (i < lines.length) {
        const m = ITEM.exec(lines[i]);
        if (!m || (m[2] !== undefined) !== ordered) break;
        const parts = [m[3]];
        for (i++; i < lines.length && lines[i].trim() !== '' && !startsBlock(lines[i]); i++)
          parts.push(lines[i].trim());
        const li = el('li');
        appendLines(li, parts, cite);
        list.append(li);
      }
      out.push(list);
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i].trim() !== '' && (para.length === 0 || !startsBlock(lines[i])); i++)
      para.push(lines[i]);
    const p = el('p');
    appendLines(p, para, cite);
    out.push(p);
  }
  return out;
}

/** Offset after the last blank line at or after `from` that is outside a code fence (else `from`). */
function stableEnd(text: string, from: number): number {
  let boundary = from;
  let fence: string | undefined;
  let at = from;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    const line = text.slice(at, nl);
    const open = FENCE.exec(line);
    if (fence) {
      if (line.trimStart().startsWith(fence)) fence = undefined;
    } else if (open) {
      fence = open[1];
    } else if (line.trim() === '' && at > from) {
      boundary = nl + 1;
    }
    at = nl + 1;
  }
  return boundary;
}

/** A text rendered as it grows (see the module header). */
export class StreamingText {
  private text = '';
  private stable = 0;
  private tail: Node[] = [];

  constructor(
    private readonly root: HTMLElement,
    private cite: CiteFn,
  ) {}

  get value(): string {
    return this.text;
  }

  append(delta: string): void {
    this.text += delta;
    for (const node of this.tail) node.parentNode?.removeChild(node);
    const end = stableEnd(this.text, this.stable);
    if (end > this.stable) {
      this.root.append(...renderMarkdown(this.text.slice(this.stable, end), this.cite));
      this.stable = end;
    }
    this.tail = renderMarkdown(this.text.slice(this.stable), this.cite);
    this.root.append(...this.tail);
  }

  /** Render the whole text again, with another citation function (e.g. once the citations are known). */
  reset(text: string, cite: CiteFn = this.cite): void {
    this.text = text;
    this.cite = cite;
    this.stable = text.length;
    this.tail = [];
    this.root.replaceChildren(...renderMarkdown(text, cite));
  }
}
