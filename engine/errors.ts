/**
 * Typed errors of the engine layer. Every failure the engine reports to its
 * callers is an EngineError carrying a stable `code`:
 * - CORRUPT_INDEX: a file referenced by the commit point is missing, truncated or fails its checksum.
 * - CLOSED: the index (writer, reader) was used after close().
 * - INVALID_DOCUMENT: a document or argument violates the document model (see document.ts).
 * - IO: the directory failed to read, write, sync or delete a file.
 * - EXISTS / NOT_FOUND: a directory file could not be created (already there) or opened (absent).
 * - LOCKED: another live writer (this process or another) holds the index directory.
 */
export type EngineErrorCode =
  'CORRUPT_INDEX' | 'CLOSED' | 'INVALID_DOCUMENT' | 'IO' | 'EXISTS' | 'NOT_FOUND' | 'LOCKED';

export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
  }
}

/** Narrowing helper. */
export function isEngineError(err: unknown, code?: EngineErrorCode): err is EngineError {
  return err instanceof EngineError && (code === undefined || err.code === code);
}
