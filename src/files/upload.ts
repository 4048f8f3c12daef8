/**
 * A chat file upload, domain side: the file's size against FILES_MAX_BYTES
 * (413), its text extracted with the extractors in the worker pool (422
 * `{detail}` when the format cannot be read), then stored write-once under the
 * uploading account (store.ts). Answers the stored file's metadata; its `id` is
 * what `metadata.files` of a completion takes. Reading the multipart request is
 * the route's (src/routes/files.ts).
 */
import { extract, ExtractionError } from '../../extractors/index.ts';
import { ServiceError } from '../errors.ts';
import { newFileId, type FileStoreWriter, type StoredFile, type StoredFileWithText } from './store.ts';

export interface UploadDeps {
  writer: FileStoreWriter;
  /** FILES_MAX_BYTES. */
  maxBytes: number;
  now: () => number;
}

export interface Upload {
  bytes: Uint8Array;
  /** As sent; '' when the form gave none. */
  filename: string;
  /** As sent; '' when unknown. */
  mediaType: string;
}

/** The 413 of a file over `maxBytes` (also answered before the body is read, from its declared length). */
export function fileTooLarge(maxBytes: number): ServiceError {
  return new ServiceError('PAYLOAD_TOO_LARGE', `The file exceeds the limit of ${maxBytes} bytes`);
}

/** Extract and store the account's upload durably; resolves with its metadata once it is on disk. */
export async function uploadFile(
  deps: UploadDeps,
  accountId: string,
  upload: Upload,
  signal?: AbortSignal,
): Promise<StoredFile> {
  const { bytes, mediaType } = upload;
  if (bytes.byteLength > deps.maxBytes) throw fileTooLarge(deps.maxBytes);
  const filename = (upload.filename || 'upload').slice(0, 255);
  let extraction;
  try {
    extraction = await extract(bytes, {
      mediaType,
      fileName: filename,
      limits: { maxInputBytes: Math.max(deps.maxBytes, 1) },
      signal,
      interactive: true,
    });
  } catch (err) {
    if (err instanceof ExtractionError)
      throw new ServiceError('UNPROCESSABLE', `The file cannot be read (${err.code}): ${err.message}`);
    throw err;
  }
  const stored: StoredFileWithText = {
    id: newFileId(),
    object: 'file',
    filename,
    bytes: bytes.byteLength,
    media_type: mediaType || 'application/octet-stream',
    created_at: Math.floor(deps.now() / 1000),
    chars: extraction.text.length,
    title: extraction.title ?? null,
    language: extraction.language ?? null,
    truncated: extraction.truncated ?? false,
    text: extraction.text,
  };
  await deps.writer.write(accountId, stored);
  const { text: _text, ...meta } = stored;
  return meta;
}
