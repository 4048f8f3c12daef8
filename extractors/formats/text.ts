/**
 * Extractors for text formats: plain text, Markdown, YAML and source code (decoded as is),
 * CSV and TSV (quote-aware, cells tab-separated), JSON (keys and values, one line per
 * scalar) and XML (text nodes and title). Decoding honours the charset parameter and BOMs.
 */
import { ExtractionError } from '../errors.ts';
import { TextBuilder, plainExtraction } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { decodeTextStrict, textPrefix } from '../text-decode.ts';
import { descendants, parseXml } from '../xml.ts';

const normaliseNewlines = (s: string) => s.replace(/\r\n?/g, '\n');

/** Plain text beyond the output limit is never decoded: only the prefix that can reach it (textPrefix). */
export const extractPlainText: Extractor = async (input, ctx) => {
  const bytes = textPrefix(input, ctx.limits.maxOutputChars, ctx.params.charset);
  return plainExtraction(
    normaliseNewlines(decodeTextStrict(bytes, ctx.params.charset, 'text')),
    ctx.limits.maxOutputChars,
  );
};

export const extractMarkdown: Extractor = async (input, ctx) => {
  const bytes = textPrefix(input, ctx.limits.maxOutputChars, ctx.params.charset);
  const text = normaliseNewlines(decodeTextStrict(bytes, ctx.params.charset, 'markdown'));
  // The first level-1 heading, ATX (`# Title`) or setext (`Title` over a line of `=`).
  const atx = /^#\s+(.+?)\s*#*\s*$/m.exec(text);
  const setext = /^ {0,3}(\S.*?)[ \t]*\n {0,3}=+[ \t]*$/m.exec(text);
  const heading = atx && (!setext || atx.index < setext.index) ? atx : setext;
  return plainExtraction(text, ctx.limits.maxOutputChars, { title: heading?.[1] });
};

/** Splits delimited text into rows of cells, honouring double quotes and doubled quotes (fields are sliced, not built per character). */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  let row: string[] = [];
  let i = 0;
  while (i < n) {
    let cell: string;
    if (text.charCodeAt(i) === 34 /* " */) {
      let j = i + 1;
      let value = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          value += text.slice(j);
          j = n;
          break;
        }
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      // Anything between the closing quote and the next separator belongs to the cell.
      let k = j;
      while (k < n && text.charCodeAt(k) !== d && text.charCodeAt(k) !== 10 && text.charCodeAt(k) !== 13) k++;
      cell = value + text.slice(j, k);
      i = k;
    } else {
      let k = i;
      while (k < n && text.charCodeAt(k) !== d && text.charCodeAt(k) !== 10 && text.charCodeAt(k) !== 13) k++;
      cell = text.slice(i, k);
      i = k;
    }
    row.push(cell);
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === d) {
      i++;
      if (i >= n) row.push('');
      continue;
    }
    // end of line
    i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    rows.push(row);
    row = [];
  }
  if (row.length) rows.push(row);
  return rows;
}

function delimitedExtractor(delimiter: string, what: string): Extractor {
  return async (input, ctx) => {
    const text = decodeTextStrict(input, ctx.params.charset, what);
    const b = new TextBuilder(ctx.limits.maxOutputChars);
    let first = true;
    for (const row of parseDelimited(text, delimiter)) {
      const line = row
        .map((c) => c.replace(/\s+/g, ' ').trim())
        .join('\t')
        .trimEnd();
      if (!line) continue;
      if (!b.append((first ? '' : '\n') + line)) break;
      first = false;
    }
    return b.finish();
  };
}

export const extractCsv = delimitedExtractor(',', 'csv');
export const extractTsv = delimitedExtractor('\t', 'tsv');

export const extractJson: Extractor = async (input, ctx) => {
  const text = decodeTextStrict(input, ctx.params.charset, 'json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON Lines and slightly broken JSON are still worth indexing as text.
    return plainExtraction(normaliseNewlines(text), ctx.limits.maxOutputChars);
  }
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  let first = true;
  const emit = (line: string) => {
    const ok = b.append((first ? '' : '\n') + line);
    first = false;
    return ok;
  };
  const stack: { key: string; value: unknown }[] = [{ key: '', value }];
  while (stack.length) {
    const { key, value: v } = stack.pop()!;
    if (v !== null && typeof v === 'object') {
      const entries = Array.isArray(v) ? v.map((x) => ['', x] as const) : Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ key: entries[i][0], value: entries[i][1] });
    } else if (v !== null && v !== '') {
      if (!emit(key ? `${key}: ${String(v)}` : String(v))) break;
    }
  }
  return b.finish();
};

export const extractXml: Extractor = async (input, ctx) => {
  const text = decodeTextStrict(input, ctx.params.charset, 'xml');
  if (!text.trim().startsWith('<')) throw new ExtractionError('CORRUPT', 'xml: document does not start with markup');
  const tree = parseXml(text, 'xml');
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  let title: string | undefined;
  const pending: string[] = [];
  for (const el of descendants(tree)) {
    const own = el.children
      .filter((c): c is string => typeof c === 'string')
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (!own) continue;
    if (title === undefined && el.local.toLowerCase() === 'title') title = own;
    pending.push(own);
  }
  b.append(pending.join('\n'));
  return b.finish({ title });
};
