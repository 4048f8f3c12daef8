/**
 * Names of file formats: the media types and file extensions of each format the
 * registry resolves (registry.ts), a media type without its parameters, and the
 * extension of a file name. The service's suffix rules (src/documents/suffix.ts)
 * read names with the same two functions.
 */

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

export interface FormatNames {
  /** The registry entry's format (registry.ts). */
  format: string;
  /** Lower case, without parameters. */
  mediaTypes: string[];
  /** Lower case, without the dot. */
  extensions: string[];
}

const names = (format: string, mediaTypes: string[], extensions: string[]): FormatNames => ({
  format,
  mediaTypes,
  extensions,
});

/**
 * Formats without a reader of their own (legacy Office, Outlook, OneNote, archives other
 * than ZIP, images) are named too: their media type or extension decides for metadata
 * only, before a misleading file name or the content sniffer could.
 */
export const FORMAT_NAMES: readonly FormatNames[] = [
  names('pdf', ['application/pdf', 'application/x-pdf'], ['pdf']),
  names(
    'docx',
    [
      `${OOXML}.wordprocessingml.document`,
      'application/vnd.ms-word.document.macroenabled.12',
      `${OOXML}.wordprocessingml.template`,
    ],
    ['docx', 'docm', 'dotx'],
  ),
  names('odt', [`${ODF}.text`, `${ODF}.text-template`], ['odt', 'ott']),
  names('rtf', ['application/rtf', 'text/rtf'], ['rtf']),
  names(
    'pptx',
    [
      `${OOXML}.presentationml.presentation`,
      'application/vnd.ms-powerpoint.presentation.macroenabled.12',
      `${OOXML}.presentationml.slideshow`,
      `${OOXML}.presentationml.template`,
    ],
    ['pptx', 'pptm', 'ppsx', 'potx'],
  ),
  names('odp', [`${ODF}.presentation`, `${ODF}.presentation-template`], ['odp', 'otp']),
  names(
    'xlsx',
    [
      `${OOXML}.spreadsheetml.sheet`,
      'application/vnd.ms-excel.sheet.macroenabled.12',
      `${OOXML}.spreadsheetml.template`,
    ],
    ['xlsx', 'xlsm', 'xltx'],
  ),
  names('ods', [`${ODF}.spreadsheet`, `${ODF}.spreadsheet-template`], ['ods', 'ots']),
  names('csv', ['text/csv', 'application/csv'], ['csv']),
  names('tsv', ['text/tab-separated-values'], ['tsv']),
  names('html', ['text/html', 'application/xhtml+xml'], ['html', 'htm', 'xhtml', 'xht']),
  names('markdown', ['text/markdown', 'text/x-markdown'], ['md', 'markdown']),
  names('json', ['application/json', 'text/json'], ['json', 'jsonl', 'ndjson']),
  names('xml', ['application/xml', 'text/xml'], ['xml']),
  names(
    'text',
    [
      'text/plain',
      'application/yaml',
      'text/yaml',
      'application/x-yaml',
      'text/x-yaml',
      'text/javascript',
      'application/javascript',
      'application/typescript',
      'text/typescript',
      'text/x-python',
      'text/x-script.python',
      'text/x-java-source',
      'text/x-java',
      'text/x-c',
      'text/x-csrc',
      'text/x-c++src',
      'text/x-c++',
      'text/x-csharp',
      'text/x-go',
      'text/x-rust',
      'text/x-ruby',
      'application/x-httpd-php',
      'text/x-php',
      'application/x-sh',
      'text/x-shellscript',
      'application/sql',
      'text/css',
    ],
    [
      'txt',
      'text',
      'log',
      'yaml',
      'yml',
      'js',
      'mjs',
      'cjs',
      'ts',
      'tsx',
      'py',
      'java',
      'c',
      'h',
      'cpp',
      'cc',
      'hpp',
      'cs',
      'go',
      'rs',
      'rb',
      'php',
      'sh',
      'bash',
      'sql',
      'css',
    ],
  ),
  names('email', ['message/rfc822'], ['eml']),
  names('zip', ['application/zip', 'application/x-zip-compressed'], ['zip']),
  names(
    'metadata-only',
    [
      'application/msword',
      'application/vnd.ms-powerpoint',
      'application/vnd.ms-excel',
      'application/vnd.ms-outlook',
      'application/onenote',
      'application/msonenote',
      'application/gzip',
      'application/x-gzip',
      'application/x-tar',
      'application/x-7z-compressed',
      'application/vnd.rar',
      'application/x-rar-compressed',
      'application/x-bzip2',
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/svg+xml',
      'image/tiff',
      'image/bmp',
      'image/heic',
    ],
    [
      'doc',
      'dot',
      'ppt',
      'pps',
      'pot',
      'xls',
      'xlt',
      'msg',
      'one',
      'gz',
      'tgz',
      'tar',
      '7z',
      'rar',
      'bz2',
      'png',
      'jpg',
      'jpeg',
      'gif',
      'webp',
      'svg',
      'tiff',
      'tif',
      'bmp',
      'heic',
    ],
  ),
];

/** Media type without parameters, lower-case. */
export function baseMediaType(mediaType: string | undefined): string {
  return (mediaType ?? '').split(';')[0].trim().toLowerCase();
}

/** Extension of the last path segment of a name, lower-case, or undefined (dotfiles and numeric tails are not extensions). */
export function extensionOf(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const base = name.split(/[?#]/)[0].split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return undefined;
  const ext = base.slice(dot + 1).toLowerCase();
  if (!/^[a-z0-9_+-]+$/.test(ext) || /^\d+$/.test(ext)) return undefined;
  return ext;
}
