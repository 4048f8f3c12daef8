/**
 * The spec's computed file suffix and the media-type-based search file type of a
 * document. The suffix comes from the media type when the table knows it
 * (application/pdf -> pdf), else from the extension of the file name, title or path
 * (first that has one). The pipeline skips documents whose suffix is longer than 10
 * characters. FILE_TYPE_TABLE is exported as data for the README. Which extractor
 * reads a format is the extractors' business (extractors/registry.ts); a test keeps
 * every media type and extension of this table known there.
 */
import { baseMediaType, extensionOf } from '../../extractors/index.ts';
import type { SearchFileType } from './file-types.ts';

export interface FileTypeRow {
  suffix: string;
  searchFileType: SearchFileType;
  /** Media types mapping to this row; the first is the canonical one. */
  mediaTypes: string[];
  /** Further file extensions mapping to this row besides `suffix`. */
  extensions?: string[];
}

const row = (
  suffix: string,
  searchFileType: SearchFileType,
  mediaTypes: string[],
  extensions?: string[],
): FileTypeRow =>
  extensions ? { suffix, searchFileType, mediaTypes, extensions } : { suffix, searchFileType, mediaTypes };

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

export const FILE_TYPE_TABLE: readonly FileTypeRow[] = Object.freeze([
  row('pdf', 'pdf', ['application/pdf', 'application/x-pdf']),
  row('docx', 'word', [`${OOXML}.wordprocessingml.document`]),
  row('docm', 'word', ['application/vnd.ms-word.document.macroenabled.12']),
  row('dotx', 'word', [`${OOXML}.wordprocessingml.template`]),
  row('doc', 'word', ['application/msword'], ['dot']),
  row('odt', 'word', [`${ODF}.text`], ['ott']),
  row('rtf', 'word', ['application/rtf', 'text/rtf']),
  row('pptx', 'powerpoint', [`${OOXML}.presentationml.presentation`]),
  row('pptm', 'powerpoint', ['application/vnd.ms-powerpoint.presentation.macroenabled.12']),
  row('ppsx', 'powerpoint', [`${OOXML}.presentationml.slideshow`]),
  row('potx', 'powerpoint', [`${OOXML}.presentationml.template`]),
  row('ppt', 'powerpoint', ['application/vnd.ms-powerpoint'], ['pps', 'pot']),
  row('odp', 'powerpoint', [`${ODF}.presentation`], ['otp']),
  row('xlsx', 'excel', [`${OOXML}.spreadsheetml.sheet`]),
  row('xlsm', 'excel', ['application/vnd.ms-excel.sheet.macroenabled.12']),
  row('xltx', 'excel', [`${OOXML}.spreadsheetml.template`]),
  row('xls', 'excel', ['application/vnd.ms-excel'], ['xlt']),
  row('ods', 'excel', [`${ODF}.spreadsheet`], ['ots']),
  row('csv', 'excel', ['text/csv', 'application/csv']),
  row('tsv', 'excel', ['text/tab-separated-values']),
  row('html', 'html', ['text/html'], ['htm']),
  row('xhtml', 'html', ['application/xhtml+xml'], ['xht']),
  row('txt', 'txt', ['text/plain'], ['text', 'log']),
  row('md', 'txt', ['text/markdown', 'text/x-markdown'], ['markdown']),
  row('json', 'txt', ['application/json', 'text/json'], ['jsonl', 'ndjson']),
  row('xml', 'txt', ['application/xml', 'text/xml']),
  row('yaml', 'txt', ['application/yaml', 'text/yaml', 'application/x-yaml', 'text/x-yaml'], ['yml']),
  row('js', 'txt', ['text/javascript', 'application/javascript'], ['mjs', 'cjs']),
  row('ts', 'txt', ['application/typescript', 'text/typescript'], ['tsx']),
  row('py', 'txt', ['text/x-python', 'text/x-script.python']),
  row('java', 'txt', ['text/x-java-source', 'text/x-java']),
  row('c', 'txt', ['text/x-c', 'text/x-csrc'], ['h']),
  row('cpp', 'txt', ['text/x-c++src', 'text/x-c++'], ['cc', 'hpp']),
  row('cs', 'txt', ['text/x-csharp']),
  row('go', 'txt', ['text/x-go']),
  row('rs', 'txt', ['text/x-rust']),
  row('rb', 'txt', ['text/x-ruby']),
  row('php', 'txt', ['application/x-httpd-php', 'text/x-php']),
  row('sh', 'txt', ['application/x-sh', 'text/x-shellscript'], ['bash']),
  row('sql', 'txt', ['application/sql']),
  row('css', 'txt', ['text/css']),
  row('eml', 'email', ['message/rfc822']),
  row('msg', 'email', ['application/vnd.ms-outlook']),
  row('one', 'onenote', ['application/onenote', 'application/msonenote']),
  row('zip', 'compressed', ['application/zip', 'application/x-zip-compressed']),
  row('gz', 'compressed', ['application/gzip', 'application/x-gzip'], ['tgz']),
  row('tar', 'compressed', ['application/x-tar']),
  row('7z', 'compressed', ['application/x-7z-compressed']),
  row('rar', 'compressed', ['application/vnd.rar', 'application/x-rar-compressed']),
  row('bz2', 'compressed', ['application/x-bzip2']),
  row('png', 'image', ['image/png']),
  row('jpg', 'image', ['image/jpeg'], ['jpeg']),
  row('gif', 'image', ['image/gif']),
  row('webp', 'image', ['image/webp']),
  row('svg', 'image', ['image/svg+xml']),
  row('tiff', 'image', ['image/tiff'], ['tif']),
  row('bmp', 'image', ['image/bmp']),
  row('heic', 'image', ['image/heic']),
]);

const BY_MEDIA_TYPE = new Map<string, FileTypeRow>();
const BY_EXTENSION = new Map<string, FileTypeRow>();
for (const r of FILE_TYPE_TABLE) {
  for (const m of r.mediaTypes) BY_MEDIA_TYPE.set(m, r);
  for (const e of [r.suffix, ...(r.extensions ?? [])]) if (!BY_EXTENSION.has(e)) BY_EXTENSION.set(e, r);
}

/** Table row for a media type or file extension, if any. */
export function lookupFileType(mediaType?: string, fileName?: string): FileTypeRow | undefined {
  const byType = BY_MEDIA_TYPE.get(baseMediaType(mediaType));
  if (byType) return byType;
  const ext = extensionOf(fileName);
  return ext ? BY_EXTENSION.get(ext) : undefined;
}

export interface SuffixInput {
  mediaType?: string;
  fileName?: string;
  title?: string;
  path?: string;
}

export interface SuffixResult {
  /** Computed suffix, lower-case, '' when neither media type nor names give one. */
  suffix: string;
  searchFileType: SearchFileType;
}

/** Maps media type and names to the computed suffix and the search file type. */
export function computeSuffix(input: SuffixInput): SuffixResult {
  const type = baseMediaType(input.mediaType);
  const known = BY_MEDIA_TYPE.get(type);
  if (known) return { suffix: known.suffix, searchFileType: known.searchFileType };
  const ext = extensionOf(input.fileName) ?? extensionOf(input.title) ?? extensionOf(input.path);
  const byExt = ext ? BY_EXTENSION.get(ext) : undefined;
  if (byExt) return { suffix: ext!, searchFileType: byExt.searchFileType };
  let searchFileType: SearchFileType = 'other';
  if (type.startsWith('image/')) searchFileType = 'image';
  else if (type.startsWith('text/') || type.endsWith('+xml') || type.endsWith('+json')) searchFileType = 'txt';
  return { suffix: ext ?? '', searchFileType };
}

/** The computed file suffix: from the binary's media type, else the extension of the title or path. */
export function documentSuffix(doc: {
  mime_type?: string | null;
  binary: boolean;
  title?: string | null;
  path?: string | null;
  path_preview?: string | null;
}): string {
  const mediaType = doc.binary ? (doc.mime_type ?? undefined) : undefined;
  const title = doc.title ?? undefined;
  const path = doc.path ?? doc.path_preview ?? undefined;
  // No media type and no dot in the names: no extension, so no suffix (as computeSuffix answers).
  if (mediaType === undefined && !title?.includes('.') && !path?.includes('.')) return '';
  return computeSuffix({ mediaType, title, path }).suffix;
}

/** Media types seen, with their table row's search file type (null: not in the table); bounded. */
const byMediaType = new Map<string, SearchFileType | null>();
const MEDIA_TYPES_KEPT = 64;

/**
 * The search file type computeSuffix gives for a media type and names (a media type in the table
 * decides alone; else the extension of the title, then of the path, as for the suffix).
 */
export function mediaFileTypeOf(mimeType: string | null, title: string, path?: string): SearchFileType {
  if (mimeType !== null) {
    let known = byMediaType.get(mimeType);
    if (known === undefined) {
      known = lookupFileType(mimeType)?.searchFileType ?? null;
      if (byMediaType.size < MEDIA_TYPES_KEPT) byMediaType.set(mimeType, known);
    }
    if (known !== null) return known;
  }
  return computeSuffix({ mediaType: mimeType ?? undefined, title, path }).searchFileType;
}

/** Markdown rendering of FILE_TYPE_TABLE for documentation. */
export function fileTypeTableMarkdown(): string {
  const lines = ['| Suffix | Search file type | Media types | Other extensions |', '|---|---|---|---|'];
  for (const r of FILE_TYPE_TABLE) {
    lines.push(
      `| ${r.suffix} | ${r.searchFileType} | ${r.mediaTypes.join(', ')} | ${(r.extensions ?? []).join(', ')} |`,
    );
  }
  return lines.join('\n');
}
