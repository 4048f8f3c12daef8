/**
 * Test worker speaking the extractors/worker.ts protocol: media type `application/x-test-hang`
 * blocks the thread forever (a stand-in for a hostile document), `application/x-test-crash`
 * exits the thread, `application/x-test-oom` exhausts the heap; anything else is extracted by the real registry.
 */
import { parentPort } from 'node:worker_threads';
import { extractWith } from '../../../extractors/registry.ts';
import { toExtractionError } from '../../../extractors/errors.ts';
import type { WorkerRequest } from '../../../extractors/worker.ts';

parentPort!.on('message', async (req: WorkerRequest) => {
  if (req.mediaType === 'application/x-test-hang') for (;;) { /* spin */ }
  if (req.mediaType === 'application/x-test-crash') process.exit(3);
  if (req.mediaType === 'application/x-test-oom') {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array(100_000).fill(hoard.length));
  }
  try {
    const result = await extractWith(req.bytes, { mediaType: req.mediaType, params: req.params, fileName: req.fileName, limits: req.limits, depth: 0 });
    parentPort!.postMessage({ id: req.id, ok: true, result });
  } catch (err) {
    const e = toExtractionError(err, req.mediaType);
    parentPort!.postMessage({ id: req.id, ok: false, error: { code: e.code, message: e.message } });
  }
});
