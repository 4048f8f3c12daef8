/**
 * Default extraction limits and their resolution from partial overrides.
 * Defaults: input 100 MB (INDEXING_API_MAX_BINARY_BYTES), 512 MB decompressed in total,
 * per-entry compression ratio 200, 10 000 ZIP entries / message parts, nesting depth 3,
 * 10 million output characters, 30 s wall time.
 */
import type { ExtractLimits } from './types.ts';

export const DEFAULT_MAX_BINARY_BYTES = 100 * 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<ExtractLimits> = Object.freeze({
  maxInputBytes: DEFAULT_MAX_BINARY_BYTES,
  maxDecompressedBytes: 512 * 1024 * 1024,
  maxCompressionRatio: 200,
  maxEntries: 10_000,
  maxDepth: 3,
  maxOutputChars: 10_000_000,
  timeoutMs: 30_000,
});

/** Merges overrides over the defaults; non-positive or non-finite values keep the default. */
export function resolveLimits(overrides?: Partial<ExtractLimits>): ExtractLimits {
  const out: ExtractLimits = { ...DEFAULT_LIMITS };
  if (!overrides) return out;
  for (const key of Object.keys(out) as (keyof ExtractLimits)[]) {
    const v = overrides[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = v;
  }
  return out;
}
