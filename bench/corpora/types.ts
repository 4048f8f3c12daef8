/**
 * Shapes shared by the corpus loaders, the engine adapters and the scenarios.
 */

/** One benchmark document: a title and a body field, plus optional exact-match keyword columns. */
export interface BenchDoc {
  /** External id as used by the qrels (or a generated one). */
  id: string;
  title: string;
  body: string;
  /** Keyword columns, e.g. { datasource: ['wiki'], acl: ['g12', 'g480'] }. */
  keywords?: Record<string, string[]>;
}

export interface BenchQuery {
  id: string;
  text: string;
}

/** query id -> (doc id -> graded gain > 0). */
export type Qrels = Map<string, Map<string, number>>;

/** A test collection with judged queries. */
export interface RelevanceSet {
  name: string;
  docs: BenchDoc[];
  /** Only queries that have at least one judgment with a gain > 0. */
  queries: BenchQuery[];
  qrels: Qrels;
}

/** Adds a judgment, keeping the highest gain when a pair repeats. */
export function addJudgment(qrels: Qrels, queryId: string, docId: string, gain: number): void {
  if (!(gain > 0)) return;
  let m = qrels.get(queryId);
  if (!m) qrels.set(queryId, (m = new Map()));
  m.set(docId, Math.max(gain, m.get(docId) ?? 0));
}
