/**
 * Test worker speaking the extractors/worker.ts protocol: media type `application/x-test-hang`
 * blocks the thread forever (a stand-in for a hostile document), `application/x-test-crash`
 * exits the thread, `application/x-test-oom` exhausts the heap, and so does the charset parameter
 * `x-test-hang` / `x-test-crash` / `x-test-oom` (for job kinds whose media type is fixed, e.g. main-content);
 * anything else runs as the real worker runs it.
 */
import { parentPort } from 'node:worker_threads';
import { toExtractionError } from '../../../extractors/errors.ts';
import { runJob } from '../../../extractors/jobs.ts';
import type { WorkerRequest } from '../../../extractors/jobs.ts';

parentPort!.on('message', async (req: WorkerRequest) => {
  const test = (what: string) =>
    req.mediaType === `application/x-test-${what}` || req.params.charset === `x-test-${what}`;
  if (test('hang'))
    for (;;) {
      /* spin */
    }
  if (test('crash')) process.exit(3);
  if (test('oom')) {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array(100_000).fill(hoard.length));
  }
  try {
    const result = await runJob(req);
    parentPort!.postMessage({ id: req.id, ok: true, result });
  } catch (err) {
    const e = toExtractionError(err, req.mediaType);
    parentPort!.postMessage({ id: req.id, ok: false, error: { code: e.code, message: e.message } });
  }
});
