/**
 * Email extractor (message/rfc822): headers From/To/Cc/Subject/Date (RFC 2047 encoded
 * words decoded), MIME multipart trees, quoted-printable and Base64 transfer encodings,
 * charsets via TextDecoder, text and HTML bodies (multipart/alternative prefers plain text),
 * attached messages and attachments (also named inline parts that are neither body text nor
 * images) extracted recursively through the registry within
 * limits.maxDepth and limits.maxEntries; each attachment becomes a `part` section.
 * Attachments that fail to extract or exceed the depth are skipped, the message still indexes.
 */
import { Buffer } from 'node:buffer';
import { ExtractionError, checkAborted } from '../errors.ts';
import { extractNested } from '../registry.ts';
import { TextBuilder } from '../text-builder.ts';
import type { ExtractContext, Extractor } from '../types.ts';
import { charsetDecoder, decodeText } from '../text-decode.ts';
import { htmlToText } from './html.ts';

/** Multipart nesting beyond this is treated as hostile. */
const MAX_MULTIPART_NESTING = 32;

interface MimePart {
  headers: Map<string, string>;
  /** Raw body as a binary (latin1) string. */
  body: string;
}

interface ContentType {
  type: string;
  params: Record<string, string>;
}

const toBinary = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
const fromBinary = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
/** Parameter values stay raw header bytes (decoded later by decodeHeader): decoded RFC 2231 text goes back to UTF-8 bytes. */
const toUtf8Binary = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;
const hexToBinary = (s: string, marker: string) =>
  s.replace(new RegExp(`${marker}([0-9A-Fa-f]{2})`, 'g'), (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/**
 * Decodes one header value's raw bytes (UTF-8 when valid, else windows-1252) and its RFC 2047
 * encoded words. Adjacent words in one charset are decoded as one byte sequence, since mailers
 * split words inside a multi-byte character.
 */
export function decodeHeader(raw: string): string {
  const text = decodeText(fromBinary(raw));
  return text
    .replace(/(=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[bBqQ]\?)/g, '$1')
    .replace(/(?:=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)+/g, (run) => {
      let out = '';
      let charset = '';
      let bytes = '';
      let words = '';
      const flush = () => {
        if (!words) return;
        try {
          out += charsetDecoder(charset).decode(fromBinary(bytes));
        } catch {
          out += words;
        }
        bytes = words = '';
      };
      for (const [word, cs, enc, data] of run.matchAll(ENCODED_WORD)) {
        const label = cs.split('*')[0].toLowerCase();
        if (label !== charset) {
          flush();
          charset = label;
        }
        bytes +=
          enc.toUpperCase() === 'B'
            ? Buffer.from(data, 'base64').toString('latin1')
            : hexToBinary(data.replace(/_/g, ' '), '=');
        words += word;
      }
      flush();
      return out;
    });
}

function parsePart(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const headText = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of headText.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function parseContentType(value: string | undefined, fallback: string): ContentType {
  if (!value) return { type: fallback, params: {} };
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  const continued: Record<string, { n: number; extended: boolean; value: string }[]> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    let key = p.slice(0, eq).trim().toLowerCase();
    let val = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/s, '$1');
    const piece = /^(.+?)\*(\d{1,3})(\*?)$/.exec(key);
    if (piece) {
      (continued[piece[1]] ??= []).push({ n: Number(piece[2]), extended: piece[3] === '*', value: val });
      continue;
    }
    if (key.endsWith('*')) {
      // RFC 2231: charset'lang'percent-encoded
      key = key.slice(0, -1);
      const m = /^([^']*)'[^']*'(.*)$/.exec(val);
      if (m) {
        try {
          val = toUtf8Binary(charsetDecoder(m[1] || 'utf-8').decode(fromBinary(hexToBinary(m[2], '%'))));
        } catch {
          val = m[2];
        }
      }
    }
    params[key] = val;
  }
  // RFC 2231 continuations: name*0*=charset'lang'pct, name*1*=pct, name*2=literal ...
  for (const [name, pieces] of Object.entries(continued)) {
    if (name in params) continue;
    let charset = '';
    let bin = '';
    for (const { n, extended, value } of pieces.sort((a, b) => a.n - b.n)) {
      let v = value;
      const m = n === 0 && extended ? /^([^']*)'[^']*'(.*)$/.exec(v) : null;
      if (m) {
        charset = m[1];
        v = m[2];
      }
      bin += extended ? hexToBinary(v, '%') : v;
    }
    try {
      params[name] = charset ? toUtf8Binary(charsetDecoder(charset).decode(fromBinary(bin))) : bin;
    } catch {
      params[name] = bin;
    }
  }
  return { type: type.trim().toLowerCase() || fallback, params };
}

function decodeTransfer(part: MimePart): Uint8Array {
  const enc = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase().trim();
  if (enc === 'base64') return new Uint8Array(Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64'));
  if (enc === 'quoted-printable') {
    return fromBinary(
      part.body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    );
  }
  return fromBinary(part.body);
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  const delim = '--' + boundary;
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith(delim)) {
      if (current) parts.push(current.join('\n'));
      if (line.slice(delim.length).startsWith('--')) {
        current = null;
        break;
      }
      current = [];
    } else if (current) current.push(line);
  }
  if (current) parts.push(current.join('\n'));
  return parts;
}

interface Walk {
  ctx: ExtractContext;
  bodies: string[];
  attachments: { name: string; text: string }[];
  parts: number;
}

function fileNameOf(part: MimePart, ct: ContentType): string | undefined {
  const disp = parseContentType(part.headers.get('content-disposition'), 'inline');
  const name = disp.params.filename ?? ct.params.name;
  return name ? decodeHeader(name) : undefined;
}

async function walk(part: MimePart, w: Walk, nesting: number, fallbackType = 'text/plain'): Promise<void> {
  checkAborted(w.ctx.signal);
  if (++w.parts > w.ctx.limits.maxEntries)
    throw new ExtractionError('ZIP_BOMB', `email: more than ${w.ctx.limits.maxEntries} MIME parts`);
  if (nesting > MAX_MULTIPART_NESTING)
    throw new ExtractionError('DEPTH', `email: multipart nesting deeper than ${MAX_MULTIPART_NESTING}`);
  const ct = parseContentType(part.headers.get('content-type'), fallbackType);
  if (ct.type.startsWith('multipart/')) {
    const boundary = ct.params.boundary;
    if (!boundary) {
      w.bodies.push(decodeText(fromBinary(part.body)));
      return;
    }
    const children = splitMultipart(part.body, boundary).map(parsePart);
    const childFallback = ct.type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
    if (ct.type === 'multipart/alternative') {
      const types = children.map((c) => parseContentType(c.headers.get('content-type'), 'text/plain').type);
      const pick =
        types.indexOf('text/plain') >= 0 ? types.indexOf('text/plain') : types.findIndex((t) => t !== 'text/plain');
      if (pick >= 0) await walk(children[pick], w, nesting + 1);
      return;
    }
    for (const child of children) await walk(child, w, nesting + 1, childFallback);
    return;
  }
  const disposition = (part.headers.get('content-disposition') ?? '').toLowerCase();
  const fileName = fileNameOf(part, ct);
  // Named inline parts other than body text and images are attachments too (Apple Mail sends PDFs inline).
  const isAttachment =
    disposition.startsWith('attachment') ||
    (fileName !== undefined &&
      (!disposition.startsWith('inline') || !/^(?:text\/(?:plain|html)|image\/)/.test(ct.type)));
  const bytes = decodeTransfer(part);
  if (!isAttachment && (ct.type === 'text/plain' || ct.type === 'text/html')) {
    const text = decodeText(bytes, ct.params.charset);
    w.bodies.push(
      ct.type === 'text/html' ? htmlToText(text, w.ctx.limits.maxOutputChars).text : text.replace(/\r\n?/g, '\n'),
    );
    return;
  }
  if (!isAttachment && !ct.type.startsWith('message/')) return; // inline images and the like
  if (w.ctx.depth + 1 > w.ctx.limits.maxDepth) return;
  try {
    const sub = await extractNested(
      bytes,
      ct.type === 'application/octet-stream' ? '' : ct.type,
      fileName,
      w.ctx,
      ct.params,
    );
    w.attachments.push({ name: fileName ?? sub.title ?? ct.type, text: sub.text });
  } catch (err) {
    if (err instanceof ExtractionError && err.code === 'ABORTED') throw err;
    // A broken attachment does not make the message unsearchable.
  }
}

export const extractEmail: Extractor = async (input, ctx) => {
  const root = parsePart(toBinary(input));
  if (root.headers.size === 0) throw new ExtractionError('CORRUPT', 'email: no message headers found');
  const h = (name: string) => {
    const v = root.headers.get(name);
    return v === undefined ? undefined : decodeHeader(v);
  };
  const w: Walk = { ctx, bodies: [], attachments: [], parts: 0 };
  await walk(root, w, 0);
  const b = new TextBuilder(ctx.limits.maxOutputChars);
  const head = ['From', 'To', 'Cc', 'Subject', 'Date']
    .map((n) => [n, h(n.toLowerCase())] as const)
    .filter(([, v]) => v)
    .map(([n, v]) => `${n}: ${v}`)
    .join('\n');
  b.block(head);
  for (const body of w.bodies) b.block(body);
  for (const a of w.attachments) {
    b.startSection('part', a.name);
    b.append(a.name);
    b.append(a.text ? '\n' + a.text : '');
  }
  return b.finish({ title: h('subject'), author: h('from') });
};
