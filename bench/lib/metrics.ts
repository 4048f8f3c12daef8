/**
 * Measures: ranking quality (nDCG@k with graded, linear gains as trec_eval
 * and pytrec_eval compute it; Recall@k over docs with gain > 0), latency
 * summaries, throughput, and process memory.
 */
import type { Qrels } from '../corpora/types.ts';

/** nDCG@k of one ranked list: sum gain/log2(rank+1) over the ideal ordering of all judged docs. */
export function ndcgAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k = 10): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    const g = judged.get(ranked[i]) ?? 0;
    if (g > 0) dcg += g / Math.log2(i + 2);
  }
  const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i] / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Fraction of the relevant docs (gain > 0) found in the first k results. */
export function recallAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k = 100): number {
  let relevant = 0;
  for (const g of judged.values()) if (g > 0) relevant++;
  if (relevant === 0) return 0;
  let found = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if ((judged.get(ranked[i]) ?? 0) > 0) found++;
  return found / relevant;
}

export interface RelevanceScores {
  ndcg10: number;
  recall100: number;
  queries: number;
}

/** Mean nDCG@10 and Recall@100 over the judged queries. */
export function evaluateRuns(runs: ReadonlyMap<string, readonly string[]>, qrels: Qrels): RelevanceScores {
  let n = 0;
  let ndcg = 0;
  let recall = 0;
  for (const [qid, judged] of qrels) {
    const ranked = runs.get(qid);
    if (!ranked) continue;
    n++;
    ndcg += ndcgAt(ranked, judged, 10);
    recall += recallAt(ranked, judged, 100);
  }
  return { ndcg10: n ? ndcg / n : 0, recall100: n ? recall / n : 0, queries: n };
}

export interface LatencySummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Sequential queries per second (1000 / mean). */
  qps: number;
}

/** Nearest-rank percentiles over latencies in milliseconds. */
export function summarizeLatencies(ms: readonly number[]): LatencySummary {
  const s = [...ms].sort((a, b) => a - b);
  const pct = (p: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { count: s.length, meanMs: mean, p50Ms: pct(50), p99Ms: pct(99), maxMs: s[s.length - 1], qps: 1000 / mean };
}

/** Wait after the first full GCs before reading RSS (see rssAfterGcMB). */
export const RSS_SETTLE_MS = 500;

/**
 * Resident set size in MB once memory has settled: full GCs (when the process runs with
 * --expose-gc), RSS_SETTLE_MS of idle time, another full GC, then the reading. V8 returns the pages
 * a GC freed on its background threads after gc() returns; read at once, RSS is 20-50 MB above what
 * the process keeps (every engine alike).
 */
export async function rssAfterGcMB(): Promise<{
  rssMB: number;
  heapUsedMB: number;
  externalMB: number;
  gcExposed: boolean;
}> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  await new Promise((r) => setTimeout(r, RSS_SETTLE_MS));
  gc?.();
  const m = process.memoryUsage();
  return {
    rssMB: m.rss / 2 ** 20,
    heapUsedMB: m.heapUsed / 2 ** 20,
    externalMB: m.external / 2 ** 20, // includes arrayBuffers
    gcExposed: typeof gc === 'function',
  };
}

export const MB = 2 ** 20;
