/**
 * Entry of a search worker thread (pool.ts): runs the engine part of searches
 * (service.ts `runPlan`) on the snapshots the owning thread shares with it.
 *
 * Protocol, in message order:
 * - in `{ type: 'snapshot', snapshot }`: the index's current snapshot (engine
 *   SharedSnapshot; segment images in shared memory). Later searches use it.
 * - in `{ type: 'search', id, plan }`: out `{ id, body }`, or `{ id, validation }`
 *   (a RequestValidationError's items: a 422), or `{ id, error }` (a message).
 *
 * The worker keeps one searcher per snapshot and its own related-lists cache, as the
 * owning thread does for searches run there.
 */
import { parentPort } from 'node:worker_threads';
import { SnapshotReader, type SharedSnapshot, type Searcher } from '../../engine/index.ts';
import { RequestValidationError, type ValidationItem } from '../errors.ts';
import { DOCUMENT_SCHEMA } from './index-schema.ts';
import { RelatedCache } from './related-cache.ts';
import { runPlan, type SearchPlan, type SearchResponseBody } from './service.ts';

export type WorkerIn = { type: 'snapshot'; snapshot: SharedSnapshot } | { type: 'search'; id: number; plan: SearchPlan };
export type WorkerOut = { id: number; body: SearchResponseBody } | { id: number; validation: ValidationItem[] } | { id: number; error: string };

const port = parentPort;
if (port) {
  const reader = new SnapshotReader({ schema: DOCUMENT_SCHEMA });
  const related = new RelatedCache();
  let searcher: Searcher | null = null;
  port.on('message', (m: WorkerIn) => {
    if (m.type === 'snapshot') {
      reader.load(m.snapshot);
      searcher = null;
      return;
    }
    let out: WorkerOut;
    try {
      searcher ??= reader.searcher();
      out = { id: m.id, body: runPlan(searcher, related, m.plan) };
    } catch (err) {
      out = err instanceof RequestValidationError ? { id: m.id, validation: err.items } : { id: m.id, error: String((err as Error)?.message ?? err) };
    }
    port.postMessage(out);
  });
}
