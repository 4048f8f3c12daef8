/**
 * Reads a queued document's body into indexable text: `text_content` as
 * given (synchronously), `binary_base64` decoded and extracted in the worker
 * pool (with the service's size limit; a promise), a binary stored in a blob
 * file extracted from that file (the worker reads it), no body as empty text. Also
 * computes the document's file suffix and the media-type-based search file type.
 */
import {
  computeSuffix,
  decodeBase64Body,
  extract,
  lookupFileType,
  type Extraction,
  type FileInput,
  type SearchFileType,
} from '../../extractors/index.ts';
import { join } from 'node:path';
import type { BodyReader, BodyResult } from './pipeline.ts';
import type { QueuedDocument } from './queue.ts';

export type ExtractFn = (
  input: Uint8Array | FileInput,
  options: { mediaType: string; fileName?: string; limits?: { maxInputBytes: number } },
) => Promise<Extraction>;

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
    if (!isBinary) return { text: { body: doc.text_content ?? '' }, suffix, mediaFileType };
    return extractBinary(doc, suffix, mediaFileType);
  };
}
