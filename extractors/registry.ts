/**
 * Media-type registry: maps media types (with parameters such as charset) to extractors so
 * no caller switches on file type. Resolution order: exact media type, structured-syntax
 * suffix (+xml, +json), type family (text/*, image/*, audio/*, video/*, font/*), the file
 * name's extension, then content sniffing (PDF, ZIP containers, RTF, OLE, images, markup),
 * then text detection (UTF-8, UTF-16 with BOM), else metadata only.
 */
import { ExtractionError, checkAborted, toExtractionError } from './errors.ts';
import { extractZipArchive } from './formats/archive.ts';
import { extractDocx } from './formats/docx.ts';
import { extractEmail } from './formats/email.ts';
import { extractHtml } from './formats/html.ts';
import { extractMetadataOnly } from './formats/metadata-only.ts';
import { extractOdp, extractOds, extractOdt } from './formats/odf.ts';
import { extractPdf } from './formats/pdf.ts';
import { extractPptx } from './formats/pptx.ts';
import { extractRtf } from './formats/rtf.ts';
import { extractCsv, extractJson, extractMarkdown, extractPlainText, extractTsv, extractXml } from './formats/text.ts';
import { extractXlsx } from './formats/xlsx.ts';
import { FORMAT_NAMES, baseMediaType, extensionOf } from './media-type.ts';
import type { ExtractContext, ExtractLimits, Extraction, Extractor } from './types.ts';
import { looksLikeText } from './text-decode.ts';
import { ZipReader, isZip } from './zip-reader.ts';

export interface RegistryEntry {
  /** Short format name used in messages and benchmarks. */
  format: string;
  extractor: Extractor;
}

const entry = (format: string, extractor: Extractor): RegistryEntry => ({ format, extractor });
const PDF = entry('pdf', extractPdf);
const DOCX = entry('docx', extractDocx);
const PPTX = entry('pptx', extractPptx);
const XLSX = entry('xlsx', extractXlsx);
const ODT = entry('odt', extractOdt);
const ODS = entry('ods', extractOds);
const ODP = entry('odp', extractOdp);
const HTML = entry('html', extractHtml);
const TEXT = entry('text', extractPlainText);
const MARKDOWN = entry('markdown', extractMarkdown);
const CSV = entry('csv', extractCsv);
const TSV = entry('tsv', extractTsv);
const JSON_ = entry('json', extractJson);
const XML = entry('xml', extractXml);
const EMAIL = entry('email', extractEmail);
const RTF = entry('rtf', extractRtf);
const ZIP = entry('zip', extractZipArchive);
const METADATA = entry('metadata-only', extractMetadataOnly);

const ENTRIES = [
  PDF,
  DOCX,
  PPTX,
  XLSX,
  ODT,
  ODS,
  ODP,
  HTML,
  TEXT,
  MARKDOWN,
  CSV,
  TSV,
  JSON_,
  XML,
  EMAIL,
  RTF,
  ZIP,
  METADATA,
];
const BY_FORMAT = new Map(ENTRIES.map((e) => [e.format, e]));
const BY_MEDIA_TYPE = new Map<string, RegistryEntry>();
const BY_EXTENSION = new Map<string, RegistryEntry>();
for (const { format, mediaTypes, extensions } of FORMAT_NAMES) {
  const entry = BY_FORMAT.get(format);
  if (!entry) throw new Error(`media-type.ts names format '${format}', which the registry does not have`);
  for (const m of mediaTypes) BY_MEDIA_TYPE.set(m, entry);
  for (const e of extensions) BY_EXTENSION.set(e, entry);
}

/** Registers or replaces the extractor for a media type (lower-case, without parameters). */
export function registerExtractor(mediaType: string, format: string, extractor: Extractor): void {
  BY_MEDIA_TYPE.set(baseMediaType(mediaType), { format, extractor });
}

/** Media types with an explicit registration. */
export function registeredMediaTypes(): string[] {
  return [...BY_MEDIA_TYPE.keys()].sort();
}

/** File extensions the registry resolves by name. */
export function registeredExtensions(): string[] {
  return [...BY_EXTENSION.keys()].sort();
}

/** Parses `type/subtype; key=value` into the lower-case type and parameters. */
export function parseMediaType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [head, ...rest] = (value ?? '').split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0)
      params[p.slice(0, eq).trim().toLowerCase()] = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return { type: head.trim().toLowerCase(), params };
}

function sniffZip(bytes: Uint8Array, limits: ExtractLimits): RegistryEntry {
  try {
    const zip = new ZipReader(bytes, limits);
    if (zip.has('word/document.xml')) return DOCX;
    if (zip.has('ppt/presentation.xml')) return PPTX;
    if (zip.has('xl/workbook.xml')) return XLSX;
    if (zip.has('mimetype') && zip.has('content.xml')) {
      const mt = (zip.readText('mimetype') ?? '').trim();
      if (mt.endsWith('.text') || mt.endsWith('.text-template')) return ODT;
      if (mt.endsWith('.spreadsheet') || mt.endsWith('.spreadsheet-template')) return ODS;
      if (mt.endsWith('.presentation') || mt.endsWith('.presentation-template')) return ODP;
    }
  } catch {
    // Unreadable directory: the archive extractor reports the precise error.
  }
  return ZIP;
}

/** Picks an extractor from the content when the media type is unknown. */
export function sniffExtractor(bytes: Uint8Array, limits: ExtractLimits): RegistryEntry {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512));
  if (head.startsWith('%PDF-')) return PDF;
  if (isZip(bytes)) return sniffZip(bytes, limits);
  if (head.startsWith('{\\rtf')) return RTF;
  const b = bytes;
  const magic = (...m: number[]) => m.every((v, i) => b[i] === v);
  if (
    magic(0xd0, 0xcf, 0x11, 0xe0) ||
    magic(0x89, 0x50, 0x4e, 0x47) ||
    magic(0xff, 0xd8, 0xff) ||
    head.startsWith('GIF8') ||
    magic(0x1f, 0x8b) ||
    head.startsWith('7z\xbc\xaf') ||
    head.startsWith('Rar!') ||
    (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP')
  ) {
    return METADATA;
  }
  if (!looksLikeText(bytes)) return METADATA;
  const start = head
    .replace(/^\ufeff|^\xef\xbb\xbf/, '')
    .trimStart()
    .toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return HTML;
  if (start.startsWith('<?xml') || /^<[a-z_][\w:.-]*[\s>]/.test(start)) return XML;
  return TEXT;
}

/** Resolves the registry entry for a context (media type, file name) and the bytes. */
export function resolveExtractor(
  bytes: Uint8Array,
  mediaType: string,
  fileName: string | undefined,
  limits: ExtractLimits,
): RegistryEntry {
  const type = baseMediaType(mediaType);
  const exact = BY_MEDIA_TYPE.get(type);
  if (exact) return exact;
  if (type.endsWith('+xml')) return XML;
  if (type.endsWith('+json')) return JSON_;
  const family = type.split('/')[0];
  if (family === 'image' || family === 'audio' || family === 'video' || family === 'font') return METADATA;
  const ext = extensionOf(fileName);
  const byName = ext === undefined ? undefined : BY_EXTENSION.get(ext);
  if (byName) return byName;
  if (family === 'text') return TEXT;
  return sniffExtractor(bytes, limits);
}

/** Runs the registry's extractor for `ctx`, enforcing the input size and wrapping failures in ExtractionError. */
export async function extractWith(bytes: Uint8Array, ctx: ExtractContext): Promise<Extraction> {
  if (bytes.byteLength > ctx.limits.maxInputBytes) {
    throw new ExtractionError(
      'TOO_LARGE',
      `input of ${bytes.byteLength} bytes exceeds the limit of ${ctx.limits.maxInputBytes} bytes`,
    );
  }
  if (ctx.depth > ctx.limits.maxDepth)
    throw new ExtractionError('DEPTH', `nesting depth ${ctx.depth} exceeds ${ctx.limits.maxDepth}`);
  checkAborted(ctx.signal);
  const { format, extractor } = resolveExtractor(bytes, ctx.mediaType, ctx.fileName, ctx.limits);
  const withBudget: ExtractContext = ctx.budget ? ctx : { ...ctx, budget: { inflatedBytes: 0 } };
  try {
    return await extractor(bytes, withBudget);
  } catch (err) {
    throw toExtractionError(err, format);
  }
}

/** Extracts an embedded document (attachment, archive member) one level deeper than `parent`. */
export function extractNested(
  bytes: Uint8Array,
  mediaType: string,
  fileName: string | undefined,
  parent: ExtractContext,
  params: Record<string, string> = {},
): Promise<Extraction> {
  return extractWith(bytes, {
    ...parent,
    mediaType: baseMediaType(mediaType),
    params,
    fileName,
    depth: parent.depth + 1,
  });
}
