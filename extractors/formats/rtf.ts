/**
 * RTF extractor: a single-pass tokenizer with an explicit group stack (no recursion):
 * control words stripped, \par \line \tab \cell \row mapped to whitespace, \'hh escapes
 * decoded with the document code page (\ansicpg), \uN with \ucN fallback skipping,
 * destinations (font and colour tables, stylesheets, pictures, \* groups) ignored,
 * title and author taken from the \info group.
 */
import { ExtractionError } from '../errors.ts';
import { TextBuilder } from '../text-builder.ts';
import type { Extractor } from '../types.ts';
import { charsetDecoder } from '../text-decode.ts';

const SKIP_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'pict',
  'object',
  'objdata',
  'datastore',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'mmathPr',
  'operator',
  'company',
  'creatim',
  'revtim',
  'printim',
  'buptim',
  'filetbl',
  'revtbl',
  'info',
  'keywords',
  'comment',
  'doccomm',
  'subject',
  'category',
  'manager',
  'header',
  'footer',
  'headerl',
  'headerr',
  'footerl',
  'footerr',
]);
const CAPTURE = new Set(['title', 'author']);
const BREAKS: Record<string, string> = {
  par: '\n',
  line: '\n',
  sect: '\n',
  page: '\n',
  row: '\n',
  tab: '\t',
  cell: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  bullet: '\u2022',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
  '~': '\u00a0',
  '-': '',
  _: '-',
};

const CONTROL_WORD = /\\([a-zA-Z]{1,32})(-?\d{1,10})? ?/y;

interface Group {
  skip: boolean;
  capture: string | null;
  uc: number;
}

export const extractRtf: Extractor = async (input, ctx) => {
  const src = new TextDecoder('latin1').decode(input);
  if (!src.startsWith('{\\rtf')) throw new ExtractionError('CORRUPT', 'rtf: missing {\\rtf header');
  let decoder = charsetDecoder('windows-1252');
  const out: string[] = [];
  const captured: Record<string, string> = {};
  const stack: Group[] = [];
  let g: Group = { skip: false, capture: null, uc: 1 };
  let pendingBytes: number[] = [];
  let skipChars = 0;
  let size = 0;
  const max = ctx.limits.maxOutputChars;
  const emit = (s: string) => {
    if (g.capture) {
      captured[g.capture] = (captured[g.capture] ?? '') + s;
      return;
    }
    if (g.skip) return;
    out.push(s);
    size += s.length;
  };
  const flushBytes = () => {
    if (pendingBytes.length) {
      emit(decoder.decode(new Uint8Array(pendingBytes)));
      pendingBytes = [];
    }
  };
  let i = 0;
  let destinationNext = false;
  while (i < src.length && size <= max) {
    const ch = src[i];
    if (ch === '{') {
      flushBytes();
      if (stack.length > 10_000) throw new ExtractionError('DEPTH', 'rtf: groups nested deeper than 10000');
      stack.push(g);
      g = { ...g };
      i++;
      continue;
    }
    if (ch === '}') {
      flushBytes();
      g = stack.pop() ?? g;
      i++;
      continue;
    }
    if (ch === '\\') {
      const next = src[i + 1];
      if (next === "'") {
        const hex = src.slice(i + 2, i + 4);
        i += 4;
        if (skipChars > 0) {
          skipChars--;
          continue;
        }
        if (/^[0-9a-fA-F]{2}$/.test(hex)) pendingBytes.push(parseInt(hex, 16));
        continue;
      }
      CONTROL_WORD.lastIndex = i;
      const m = CONTROL_WORD.exec(src);
      if (!m) {
        // control symbol: \\ \{ \} \~ \- \_ \* and others
        flushBytes();
        i += 2;
        if (next === '*') {
          destinationNext = true;
          continue;
        }
        if (next === '\\' || next === '{' || next === '}') emit(next);
        else if (next !== undefined && next in BREAKS) emit(BREAKS[next]);
        else if (next === '\n' || next === '\r') emit('\n');
        continue;
      }
      flushBytes();
      i += m[0].length;
      const word = m[1];
      const param = m[2] === undefined ? undefined : Number(m[2]);
      if (destinationNext) {
        destinationNext = false;
        g.skip = true; // unknown \* destinations are ignorable by definition
        continue;
      }
      if (CAPTURE.has(word) && stack.length > 0) {
        g.capture = word;
        continue;
      }
      if (SKIP_DESTINATIONS.has(word)) {
        g.skip = true;
        continue;
      }
      if (word === 'ansicpg' && param !== undefined) {
        try {
          decoder = charsetDecoder(`windows-${param}`);
        } catch {
          /* keep the default code page */
        }
        continue;
      }
      if (word === 'uc' && param !== undefined) {
        g.uc = Math.max(0, Math.min(param, 10));
        continue;
      }
      if (word === 'u' && param !== undefined) {
        const cp = param < 0 ? param + 65536 : param;
        emit(String.fromCharCode(cp));
        skipChars = g.uc;
        continue;
      }
      if (word === 'bin' && param !== undefined) {
        i += Math.max(0, param);
        continue;
      }
      if (word in BREAKS) emit(BREAKS[word]);
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      i++;
      continue;
    }
    if (skipChars > 0) {
      skipChars--;
      i++;
      continue;
    }
    flushBytes();
    let j = i;
    while (j < src.length && src[j] !== '\\' && src[j] !== '{' && src[j] !== '}' && src[j] !== '\r' && src[j] !== '\n')
      j++;
    emit(src.slice(i, j));
    i = j;
  }
  flushBytes();
  const text = out
    .join('')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const b = new TextBuilder(max);
  b.append(text);
  return b.finish({ title: captured.title, author: captured.author });
};
