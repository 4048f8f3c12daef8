/**
 * Entry of a search worker thread (pool.ts): runs the engine part of searches
 * (service.ts `runPlan`) on the snapshots the owning thread shares with it.
 *
 * Protocol, in message order:
 * - in `{ type: 'snapshot', snapshot }`: the index's current snapshot (engine
 *   SharedSnapshot; segment images in shared memory). Later searches use it.
 * - in `{ type: 'search', id, plan }`: out `{ id, json, cut? }` (the response body as JSON
 *   text: strings cross threads cheaply; `cut` when a budget stopped the query), or
 *   `{ id, validation, refused? }` (a RequestValidationError's items: a 422; `refused` names
 *   the limit of a SearchRefusedError), or `{ id, error }` (a message).
 * - in `{ type: 'select', id, text, question, budget, language }`: out `{ id, json }` with the
 *   parts of an attached file the chat model receives (passages/select.ts selectRelevant), or `{ id, error }`.
 *
 * The worker keeps one searcher per snapshot and its own related-lists cache, as the
 * owning thread does for searches run there.
 */
import { parentPort } from 'node:worker_threads';
import { SnapshotReader, type BudgetCut, type SharedSnapshot, type Searcher } from '../../engine/index.ts';
import { RequestValidationError, type ValidationItem } from '../errors.ts';
import { SearchRefusedError, type RefusalLimit } from './limits.ts';
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
  | { id: number; json: string; cut?: BudgetCut }
  | { id: number; validation: ValidationItem[]; refused?: RefusalLimit }
  | { id: number; error: string };

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
      const { body, cut } = runPlan(searcher, related, { ...m.plan, tokens });
      out = cut ? { id: m.id, json: JSON.stringify(body), cut } : { id: m.id, json: JSON.stringify(body) };
    } catch (err) {
      if (err instanceof SearchRefusedError) out = { id: m.id, validation: err.items, refused: err.limit };
      else if (err instanceof RequestValidationError) out = { id: m.id, validation: err.items };
      else out = { id: m.id, error: String((err as Error)?.message ?? err) };
    }
    port.postMessage(out);
  });
}
