/**
 * Reads a queued document's body into indexable text: `text_content` as
 * given (synchronously), `binary_base64` decoded and extracted in the worker
 * pool (with the service's size limit; a promise), a binary stored in a blob
 * file extracted from that file (the worker reads it), no body as empty text. Also
 * gives the document's file suffix and media-type-based search file type (suffix.ts).
 */
import { join } from 'node:path';
import { decodeBase64Body, extract, type Extraction, type FileInput } from '../../extractors/index.ts';
import type { BodyReader, BodyResult } from './pipeline.ts';
import type { QueuedDocument } from './queue.ts';
import { documentSuffix, mediaFileTypeOf } from './suffix.ts';

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
