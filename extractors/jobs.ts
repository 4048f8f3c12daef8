/**
 * The jobs an extraction worker runs, shared by the pool (extractors/pool.ts) and the worker
 * (extractors/worker.ts) so both sides agree on the protocol. A job carries bytes (or the path
 * of a file holding them, which the worker reads itself, so large inputs are never copied
 * between threads), a media type with its parameters and the limits; its `kind` says what the
 * worker does with them:
 * - `extract` (the default): the media-type registry, resolving to an Extraction;
 * - `main-content`: an HTML/XHTML web page's main content (boilerplate removed, charset from
 *   `params.charset`, a BOM or `<meta charset>`), cut at `limits.maxOutputChars` on a word
 *   boundary, resolving to a MainContent (with `params.links = '1'` also the page's links).
 * Every kind runs under the pool's wall-time limit (`limits.timeoutMs`) and heap cap.
 */
import { readFileSync } from 'node:fs';
import { ExtractionError } from './errors.ts';
import { extractWith } from './registry.ts';
import type { ExtractLimits, Extraction } from './types.ts';
import { type MainContent, extractMainContentFromBytes } from './web/main-content.ts';

/** Result type of each job kind. */
export interface JobResults {
  extract: Extraction;
  'main-content': MainContent;
}
export type JobKind = keyof JobResults;

/** What a job gives the worker: bytes, media type with its parameters, limits, and its kind. */
export interface JobInput {
  /** What the worker does with the bytes; default `extract`. */
  kind?: JobKind;
  /** The input, or empty when `file` names it. */
  bytes: Uint8Array;
  /** A file holding the input (read in the worker); `extract` jobs only. */
  file?: string;
  mediaType: string;
  params: Record<string, string>;
  fileName?: string;
  limits: ExtractLimits;
}

/** One message from the pool to a worker. */
export interface WorkerRequest extends JobInput {
  id: number;
}

/** The job's input: its bytes, or the contents of its file (a missing file is CORRUPT). */
export function jobInput(req: JobInput): Uint8Array {
  if (req.file === undefined) return req.bytes;
  let buf: Buffer;
  try {
    buf = readFileSync(req.file);
  } catch (err) {
    throw new ExtractionError('CORRUPT', `cannot read the stored binary (${(err as NodeJS.ErrnoException).code})`);
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

const JOBS: { [K in JobKind]: (req: WorkerRequest) => Promise<JobResults[K]> } = {
  extract: (req) =>
    extractWith(jobInput(req), {
      mediaType: req.mediaType,
      params: req.params,
      fileName: req.fileName,
      limits: req.limits,
      depth: 0,
    }),
  'main-content': async (req) =>
    extractMainContentFromBytes(req.bytes, req.params.charset, req.limits.maxOutputChars, {
      links: req.params.links === '1',
    }),
};

/** Runs one job in the calling thread (a worker); rejects with whatever the job throws. */
export function runJob(req: WorkerRequest): Promise<JobResults[JobKind]> {
  return JOBS[req.kind ?? 'extract'](req);
}
