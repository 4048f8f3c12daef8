/**
 * Public API of the extractors layer: Base64-decoded binaries to searchable text, safely.
 * - extract(bytes, options): runs in the shared worker pool (wall-time limit, crash isolation).
 * - extractInline(bytes, options): same result in the calling thread (tests, benchmarks, trusted input).
 * - the media-type registry, the suffix / search-file-type table, limit defaults, ExtractionError.
 */
import { ExtractionError } from './errors.ts';
import { resolveLimits } from './limits.ts';
import { ExtractionPool } from './pool.ts';
import type { PoolOptions } from './pool.ts';
import { extractWith, parseMediaType } from './registry.ts';
import type { ExtractLimits, Extraction } from './types.ts';

export { decodeBase64Body } from './base64.ts';
export { ExtractionError, toExtractionError } from './errors.ts';
export type { ExtractionErrorCode } from './errors.ts';
export { DEFAULT_LIMITS, DEFAULT_MAX_BINARY_BYTES, resolveLimits } from './limits.ts';
export { ExtractionPool } from './pool.ts';
export type { PoolOptions } from './pool.ts';
export {
  extractNested, extractWith, parseMediaType, registerExtractor, registeredMediaTypes, resolveExtractor, sniffExtractor,
} from './registry.ts';
export type { RegistryEntry } from './registry.ts';
export { FILE_TYPE_TABLE, computeSuffix, extensionOf, fileTypeTableMarkdown, lookupFileType } from './suffix.ts';
export type { FileTypeRow, SearchFileType, SuffixInput, SuffixResult } from './suffix.ts';
export type { ExtractContext, ExtractLimits, Extraction, Extractor, Section, SectionKind } from './types.ts';

export interface ExtractOptions {
  /** IANA media type, parameters allowed (`text/plain; charset=iso-8859-1`). '' or octet-stream means unknown. */
  mediaType: string;
  fileName?: string;
  /** Overrides of DEFAULT_LIMITS. */
  limits?: Partial<ExtractLimits>;
  signal?: AbortSignal;
  /** Pool to run in; default the shared pool (created on first use). */
  pool?: ExtractionPool;
}

let sharedPool: ExtractionPool | null = null;
let sharedPoolOptions: PoolOptions = {};

/** Sets options of the shared pool before its first use (e.g. `{ size: 2 }`); later calls have no effect on a running pool. */
export function configureSharedPool(options: PoolOptions): void {
  sharedPoolOptions = options;
}

/** The shared pool, created on first use. */
export function getSharedPool(): ExtractionPool {
  sharedPool ??= new ExtractionPool(sharedPoolOptions);
  return sharedPool;
}

/** Terminates the shared pool (graceful shutdown); a later extract() starts a new one. */
export async function closeSharedPool(): Promise<void> {
  const p = sharedPool;
  sharedPool = null;
  await p?.close();
}

function precheck(bytes: Uint8Array, limits: ExtractLimits): void {
  if (!(bytes instanceof Uint8Array)) throw new ExtractionError('CORRUPT', 'input must be a Uint8Array');
  if (bytes.byteLength > limits.maxInputBytes) {
    throw new ExtractionError('TOO_LARGE', `input of ${bytes.byteLength} bytes exceeds the limit of ${limits.maxInputBytes} bytes`);
  }
}

/** Extracts text in a worker thread under all limits, including the wall-time limit. Rejects only with ExtractionError. */
export async function extract(bytes: Uint8Array, options: ExtractOptions): Promise<Extraction> {
  const limits = resolveLimits(options.limits);
  precheck(bytes, limits);
  const { type, params } = parseMediaType(options.mediaType);
  const pool = options.pool ?? getSharedPool();
  return pool.run({ bytes, mediaType: type, params, fileName: options.fileName, limits, signal: options.signal });
}

/**
 * Extracts text in the calling thread. All limits except the wall time apply (a hostile
 * document can block this thread); use extract() for untrusted input in the server.
 */
export async function extractInline(bytes: Uint8Array, options: Omit<ExtractOptions, 'pool'>): Promise<Extraction> {
  const limits = resolveLimits(options.limits);
  precheck(bytes, limits);
  const { type, params } = parseMediaType(options.mediaType);
  return extractWith(bytes, { mediaType: type, params, fileName: options.fileName, limits, depth: 0, signal: options.signal });
}
