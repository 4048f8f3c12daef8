/**
 * Reads a queued document's body into indexable text: `text_content` as
 * given (synchronously), `binary_base64` decoded and extracted in the worker
 * pool (with the service's size limit; a promise), no body as empty text. Also
 * gives the document's file suffix and media-type-based search file type (suffix.ts).
 */
import { decodeBase64Body, extract, type Extraction } from '../../extractors/index.ts';
import type { BodyReader, BodyResult } from './pipeline.ts';
import type { QueuedDocument } from './queue.ts';
import { documentSuffix, mediaFileTypeOf } from './suffix.ts';

export type ExtractFn = (
  bytes: Uint8Array,
  options: { mediaType: string; fileName?: string; limits?: { maxInputBytes: number } },
) => Promise<Extraction>;

export function createBodyReader(options: { maxBinaryBytes: number; extract?: ExtractFn }): BodyReader {
  const run = options.extract ?? extract;
  const extractBinary = async (doc: QueuedDocument, suffix: string, mediaFileType: string): Promise<BodyResult> => {
    const bytes = decodeBase64Body(doc.binary_base64!, options.maxBinaryBytes);
    const ex = await run(bytes, {
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
    const isBinary = doc.binary_base64 !== null;
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
