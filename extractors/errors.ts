/**
 * Typed extraction error. Every failure of the extractors layer surfaces as an
 * ExtractionError with a stable `code`; callers map it to a failed or skipped document status.
 */

export type ExtractionErrorCode =
  'TOO_LARGE' | 'ZIP_BOMB' | 'CORRUPT' | 'TIMEOUT' | 'UNSUPPORTED' | 'DEPTH' | 'OVERLOADED' | 'ABORTED';

export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  readonly code: ExtractionErrorCode;

  constructor(code: ExtractionErrorCode, message: string) {
    super(message);
    this.code = code;
  }

  /** Plain object for crossing the worker boundary. */
  toJSON(): { code: ExtractionErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Wraps any thrown value into an ExtractionError; unknown failures become CORRUPT with the format named. */
export function toExtractionError(err: unknown, format: string): ExtractionError {
  if (err instanceof ExtractionError) return err;
  if (err instanceof RangeError) {
    return new ExtractionError('CORRUPT', `${format}: structure too deep or too large to parse (${err.message})`);
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new ExtractionError('CORRUPT', `${format}: cannot parse document (${detail.slice(0, 300)})`);
}

/** Throws ABORTED when the signal is aborted; extractors call it between expensive steps. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ExtractionError('ABORTED', 'extraction aborted');
}
