/**
 * Entry of a search worker thread (pool.ts): runs the engine part of searches
 * (service.ts `runPlan`) on the snapshots the owning thread shares with it.
 *
 * Protocol, in message order:
 * - in `{ type: 'snapshot', snapshot }`: the index's current snapshot (engine
 *   SharedSnapshot; segment images in shared memory). Later searches use it.
 * - in `{ type: 'search', id, plan }`: out `{ id, json }` (the response body as JSON
 *   text: strings cross threads cheaply), or `{ id, validation }`
 *   (a RequestValidationError's items: a 422), or `{ id, error }` (a message).
 * - in `{ type: 'select', id, text, question, budget, language }`: out `{ id, json }` with the
 *   parts of an attached file the chat model receives (passages/select.ts selectRelevant), or `{ id, error }`.
 *
 * The worker keeps one searcher per snapshot and its own related-lists cache, as the
 * owning thread does for searches run there.
 */
import { parentPort } from 'node:worker_threads';
import { SnapshotReader, type SharedSnapshot, type Searcher } from '../../engine/index.ts';
import { RequestValidationError, type ValidationItem } from '../errors.ts';
import { DOCUMENT_SCHEMA } from '../documents/index-schema.ts';
import { RelatedCache } from './related-cache.ts';
import { runPlan, type SearchPlan } from './service.ts';
import { selectRelevant } from '../passages/select.ts';
import type { Language } from '../../engine/index.ts';

/**
 * A search. The viewer's token set travels once per worker: `tokens` comes with the first plan of
 * viewer id `viewer` and is remembered; `reset` first forgets every remembered set (pool.ts bounds them).
 */
export interface SearchJob {
  type: 'search';
  id: number;
  plan: Omit<SearchPlan, 'tokens'>;
  viewer: number;
  tokens?: readonly string[];
  reset?: boolean;
}

/** The parts of an attached file for a chat question (passages/select.ts selectRelevant). */
export interface SelectJob {
  type: 'select';
  id: number;
  text: string;
  question: string;
  budget: number;
  language: Language;
}

export type WorkerIn = { type: 'snapshot'; snapshot: SharedSnapshot } | SearchJob | SelectJob;
export type WorkerOut =
  { id: number; json: string } | { id: number; validation: ValidationItem[] } | { id: number; error: string };

const port = parentPort;
if (port) {
  const reader = new SnapshotReader({ schema: DOCUMENT_SCHEMA });
  const related = new RelatedCache();
  let searcher: Searcher | null = null;
  const viewers = new Map<number, readonly string[]>();
  port.on('message', (m: WorkerIn) => {
    if (m.type === 'snapshot') {
      reader.load(m.snapshot);
      searcher = null;
      return;
    }
    let out: WorkerOut;
    if (m.type === 'select') {
      try {
        out = { id: m.id, json: selectRelevant(m.text, m.question, m.budget, m.language) };
      } catch (err) {
        out = { id: m.id, error: String((err as Error)?.message ?? err) };
      }
      port.postMessage(out);
      return;
    }
    try {
      if (m.reset) viewers.clear();
      if (m.tokens) viewers.set(m.viewer, m.tokens);
      const tokens = viewers.get(m.viewer);
      if (!tokens) throw new Error(`unknown viewer ${m.viewer}`);
      searcher ??= reader.searcher();
      out = { id: m.id, json: JSON.stringify(runPlan(searcher, related, { ...m.plan, tokens })) };
    } catch (err) {
      out =
        err instanceof RequestValidationError
          ? { id: m.id, validation: err.items }
          : { id: m.id, error: String((err as Error)?.message ?? err) };
    }
    port.postMessage(out);
  });
}
