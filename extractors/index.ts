/**
 * Public API of the extractors layer: Base64-decoded binaries to searchable text, safely.
 * - extract(input, options): runs in the shared worker pool (wall-time limit, crash isolation);
 *   the input is bytes or a file (`{ path, size }`) that the worker reads itself.
 * - extractInline(bytes, options): same result in the calling thread (tests, benchmarks, trusted input).
 * - extractMainContentPooled(bytes, options): an HTML web page's main content, in the same pool.
 * - extractMainContent / truncateText / parseHtml (extractors/web/): the same in the calling thread.
 * - the media-type registry (media types and extensions to extractors), limit defaults, ExtractionError.
 * - decodeText (bytes in a charset, else sniffed) and decodeHeader (an e-mail header's RFC 2047 words).
 */
import { ExtractionError } from './errors.ts';
import { resolveLimits } from './limits.ts';
import { jobInput, type JobKind, type JobResults } from './jobs.ts';
import { ExtractionPool } from './pool.ts';
import type { PoolJob, PoolOptions } from './pool.ts';
import { extractWith, parseMediaType } from './registry.ts';
import type { ExtractLimits, Extraction } from './types.ts';
import type { MainContent } from './web/main-content.ts';

export { decodeBase64Body } from './base64.ts';
export { ExtractionError, toExtractionError } from './errors.ts';
export type { ExtractionErrorCode } from './errors.ts';
export { DEFAULT_LIMITS, DEFAULT_MAX_BINARY_BYTES, resolveLimits } from './limits.ts';
export { ExtractionPool, SEA_WORKER_ASSET } from './pool.ts';
export { decodeText } from './text-decode.ts';
export { decodeHeader } from './formats/email.ts';
export type { PoolJob, PoolOptions } from './pool.ts';
export type { JobKind, JobResults } from './jobs.ts';
export { extractMainContent, extractMainContentFromBytes, renderText, truncateText } from './web/main-content.ts';
export type { MainContent, MainContentExtras } from './web/main-content.ts';
export { parseHtml } from './web/html-tree.ts';
export type { HtmlElement, HtmlNode, ParsedHtml } from './web/html-tree.ts';
export {
  extractNested,
  extractWith,
  parseMediaType,
  registerExtractor,
  registeredExtensions,
  registeredMediaTypes,
  resolveExtractor,
  sniffExtractor,
} from './registry.ts';
export type { RegistryEntry } from './registry.ts';
export { baseMediaType, extensionOf } from './media-type.ts';
export type { ExtractContext, ExtractLimits, Extraction, Extractor, Section, SectionKind } from './types.ts';

export interface ExtractOptions {
  /** IANA media type, parameters allowed (`text/plain; charset=iso-8859-1`). '' or octet-stream means unknown. */
  mediaType: string;
  fileName?: string;
  /** Overrides of DEFAULT_LIMITS. */
  limits?: Partial<ExtractLimits>;
  signal?: AbortSignal;
  /** Pool to run in; default the shared pool (created on first use). */
  pool?: JobRunner;
  /** A caller waits on the result (web search, chat upload): queued ahead of indexing jobs (PoolJob.interactive). */
  interactive?: boolean;
}

/** What runs pool jobs: an ExtractionPool, or a stand-in with the same `run` (tests). */
export interface JobRunner {
  run<K extends JobKind = 'extract'>(job: PoolJob & { kind?: K }): Promise<JobResults[K]>;
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

/** A document stored in a file: the worker reads it (it never passes through the calling thread). */
export interface FileInput {
  path: string;
  /** Its size in bytes (checked against maxInputBytes before the file is read). */
  size: number;
}

const NO_BYTES = new Uint8Array(0);

function precheck(input: Uint8Array | FileInput, limits: ExtractLimits): void {
  const size = input instanceof Uint8Array ? input.byteLength : input?.size;
  if (typeof size !== 'number') throw new ExtractionError('CORRUPT', 'input must be a Uint8Array or a file');
  if (size > limits.maxInputBytes) {
    throw new ExtractionError('TOO_LARGE', `input of ${size} bytes exceeds the limit of ${limits.maxInputBytes} bytes`);
  }
}

/** Extracts text in a worker thread under all limits, including the wall-time limit. Rejects only with ExtractionError. */
export async function extract(input: Uint8Array | FileInput, options: ExtractOptions): Promise<Extraction> {
  const limits = resolveLimits(options.limits);
  precheck(input, limits);
  const { type, params } = parseMediaType(options.mediaType);
  const pool = options.pool ?? getSharedPool();
  const file = input instanceof Uint8Array ? undefined : input.path;
  return pool.run({
    bytes: input instanceof Uint8Array ? input : NO_BYTES,
    file,
    mediaType: type,
    params,
    fileName: options.fileName,
    limits,
    signal: options.signal,
    interactive: options.interactive,
  });
}

/**
 * Extracts text in the calling thread. All limits except the wall time apply (a hostile
 * document can block this thread); use extract() for untrusted input in the server.
 */
export async function extractInline(
  input: Uint8Array | FileInput,
  options: Omit<ExtractOptions, 'pool'>,
): Promise<Extraction> {
  const limits = resolveLimits(options.limits);
  precheck(input, limits);
  const { type, params } = parseMediaType(options.mediaType);
  const bytes =
    input instanceof Uint8Array
      ? input
      : jobInput({ bytes: NO_BYTES, file: input.path, mediaType: '', params: {}, limits });
  return extractWith(bytes, {
    mediaType: type,
    params,
    fileName: options.fileName,
    limits,
    depth: 0,
    signal: options.signal,
  });
}

/** Wall-time limit of one web page's main-content extraction in the pool (the same as crawled PDFs get). */
export const MAIN_CONTENT_TIMEOUT_MS = 10_000;

export interface MainContentOptions {
  /** Charset of the Content-Type header; a BOM wins, without either `<meta charset>`, then UTF-8, else windows-1252. */
  charset?: string;
  /** Characters of text kept; longer text is cut on a word boundary and marked with an ellipsis. */
  maxChars: number;
  signal?: AbortSignal;
  /** Wall-time limit in ms; default MAIN_CONTENT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Pool to run in; default the shared pool. */
  pool?: JobRunner;
  /** Also answer the page's links, canonical and base URLs and robots meta (MainContent.links, ...). */
  links?: boolean;
  /** Queue ahead of indexing jobs (default true: a caller waits); false for crawls that index. */
  interactive?: boolean;
}

/**
 * Main content of an HTML/XHTML web page (title, meta description, boilerplate-free text),
 * parsed in a worker of the pool under the wall-time limit, never in the calling thread.
 * Rejects only with ExtractionError (TIMEOUT, ABORTED, OVERLOADED, TOO_LARGE over
 * DEFAULT_LIMITS.maxInputBytes, CORRUPT when the worker crashed).
 */
export async function extractMainContentPooled(bytes: Uint8Array, options: MainContentOptions): Promise<MainContent> {
  const limits = resolveLimits({
    maxOutputChars: options.maxChars,
    timeoutMs: options.timeoutMs ?? MAIN_CONTENT_TIMEOUT_MS,
  });
  precheck(bytes, limits);
  const pool = options.pool ?? getSharedPool();
  const params: Record<string, string> = options.charset ? { charset: options.charset } : {};
  if (options.links) params.links = '1';
  return pool.run({
    kind: 'main-content',
    bytes,
    mediaType: 'text/html',
    params,
    limits,
    signal: options.signal,
    interactive: options.interactive ?? true,
  });
}
