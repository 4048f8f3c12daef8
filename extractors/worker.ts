/**
 * Worker-thread entry of the extraction pool: receives WorkerRequest messages ({id, kind,
 * bytes, mediaType, params, fileName, limits}; see jobs.ts for the job kinds), runs the job in
 * this thread and posts back either {id, ok: true, result} or {id, ok: false, error: {code, message}}.
 * Never throws past a message.
 */
import { parentPort } from 'node:worker_threads';
import { ExtractionError, toExtractionError } from './errors.ts';
import { runJob } from './jobs.ts';
import type { WorkerRequest } from './jobs.ts';

export type { WorkerRequest } from './jobs.ts';

if (!parentPort) throw new ExtractionError('UNSUPPORTED', 'extractors/worker.ts must run as a worker thread');
const port = parentPort;

port.on('message', async (req: WorkerRequest) => {
  try {
    const result = await runJob(req);
    port.postMessage({ id: req.id, ok: true, result });
  } catch (err) {
    const e = toExtractionError(err, req.mediaType || 'document');
    port.postMessage({ id: req.id, ok: false, error: { code: e.code, message: e.message } });
  }
});
