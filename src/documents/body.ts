/**
 * Reads a queued document's body into indexable text: `text_content` as
 * given (synchronously) unless its `mime_type` is HTML (then its visible text,
 * tags stripped and entities decoded, extracted in the worker pool like an HTML
 * file), `binary_base64` decoded and extracted in the worker pool (with the
 * service's size limit; a promise), a binary stored in a blob file extracted from
 * that file (the worker reads it), no body as empty text. Also gives the
 * document's file suffix and media-type-based search file type (suffix.ts).
 */
import { join } from 'node:path';
import { baseMediaType, decodeBase64Body, extract, type Extraction, type FileInput } from '../../extractors/index.ts';
import type { BodyReader, BodyResult } from './pipeline.ts';
import type { QueuedDocument } from './queue.ts';
import { documentSuffix, mediaFileTypeOf } from './suffix.ts';

/** Media types whose `text_content` is markup: indexed as its visible text, as an extracted HTML file is. */
const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);
const encoder = new TextEncoder();

export type ExtractFn = (
  input: Uint8Array | FileInput,
  options: { mediaType: string; fileName?: string; limits?: { maxInputBytes: number } },
) => Promise<Extraction>;

export interface BodyReaderOptions {
  maxBinaryBytes: number;
  extract?: ExtractFn;
  /** Where stored binaries are (`blobsDir(<documents dir>)`); required to read documents that have one. */
  blobsDir?: string;
}

export function createBodyReader(options: BodyReaderOptions): BodyReader {
  const run = options.extract ?? extract;
  const input = (doc: QueuedDocument): Uint8Array | FileInput => {
    const blob = doc.binary_blob;
    if (!blob) return decodeBase64Body(doc.binary_base64!, options.maxBinaryBytes);
    if (options.blobsDir === undefined) throw new Error('no blob directory to read the stored binary from');
    return { path: join(options.blobsDir, blob.name), size: blob.size };
  };
  const extractBinary = async (doc: QueuedDocument, suffix: string, mediaFileType: string): Promise<BodyResult> => {
    const ex = await run(input(doc), {
      mediaType: doc.mime_type ?? '',
      fileName: doc.title || undefined,
      limits: { maxInputBytes: options.maxBinaryBytes },
    });
    return {
      text: { body: ex.text, language: ex.language, author: ex.author, title: ex.title, pageCount: ex.pageCount },
      suffix,
      mediaFileType,
    };
  };
  // HTML sent as text: the same extractor as an HTML file, told that the text is UTF-8 (a <meta charset> in it is stale).
  const extractMarkup = async (
    doc: QueuedDocument,
    bytes: Uint8Array,
    mediaType: string,
    suffix: string,
    mediaFileType: string,
  ): Promise<BodyResult> => {
    const ex = await run(bytes, {
      mediaType: `${mediaType}; charset=utf-8`,
      fileName: doc.title || undefined,
      limits: { maxInputBytes: Math.max(options.maxBinaryBytes, bytes.length) },
    });
    return {
      text: { body: ex.text, language: ex.language, author: ex.author, title: ex.title },
      suffix,
      mediaFileType,
    };
  };
  return (doc) => {
    const isBinary = doc.binary_base64 !== null || !!doc.binary_blob;
    const suffix = documentSuffix({
      mime_type: doc.mime_type,
      binary: isBinary,
      title: doc.title,
      path: doc.path,
      path_preview: doc.path_preview,
    });
    const mediaFileType = mediaFileTypeOf(doc.mime_type, doc.title, doc.path ?? doc.path_preview ?? undefined);
    if (isBinary) return extractBinary(doc, suffix, mediaFileType);
    const mediaType = baseMediaType(doc.mime_type ?? '');
    if (HTML_TYPES.has(mediaType) && doc.text_content)
      return extractMarkup(doc, encoder.encode(doc.text_content), mediaType, suffix, mediaFileType);
    return { text: { body: doc.text_content ?? '' }, suffix, mediaFileType };
  };
}
