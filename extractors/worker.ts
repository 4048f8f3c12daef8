/**
 * Worker-thread entry of the extraction pool: receives {id, bytes, mediaType, params,
 * fileName, limits} messages, runs the registry in this thread and posts back either
 * {id, ok: true, result} or {id, ok: false, error: {code, message}}. Never throws past a message.
 */
import { parentPort } from 'node:worker_threads';
import { ExtractionError, toExtractionError } from './errors.ts';
import { extractWith } from './registry.ts';
import type { ExtractLimits } from './types.ts';

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  mediaType: string;
  params: Record<string, string>;
  fileName?: string;
  limits: ExtractLimits;
}

if (!parentPort) throw new ExtractionError('UNSUPPORTED', 'extractors/worker.ts must run as a worker thread');
const port = parentPort;

port.on('message', async (req: WorkerRequest) => {
  try {
    const result = await extractWith(req.bytes, {
      mediaType: req.mediaType, params: req.params, fileName: req.fileName, limits: req.limits, depth: 0,
    });
    port.postMessage({ id: req.id, ok: true, result });
  } catch (err) {
    const e = toExtractionError(err, req.mediaType || 'document');
    port.postMessage({ id: req.id, ok: false, error: { code: e.code, message: e.message } });
  }
});
