/**
 * Scenario "gcide-query": top-10 query latency on GCIDE (126,240 docs, in
 * memory) for 2-3 word queries sampled deterministically from GCIDE's own text
 * (runs of consecutive words, so very common words occur; see
 * corpora/queries.ts). Each engine runs in its own child process: build,
 * commit, a warm-up pass of as many queries as are timed (1,000, a different
 * sample, so nothing the timed queries ask has been asked before), then the
 * 1,000 timed queries one after another. The timed figures are those of a
 * process that has run for a while, as a server has (JIT-compiled code); the
 * warm-up pass is timed too and printed as the "cold" rows (the first queries of
 * a fresh process). Reports wall-clock mean / p50 / p99 / max and
 * queries/s, plus the same figures in process CPU time (process.cpuUsage, so
 * all threads of the process: GC helpers and worker threads count too; an upper
 * bound that a loaded shared machine disturbs much less than wall time).
 *
 * Run: cd bench && npm run gcide-query   (BENCH_QUERIES=n to change the count)
 */
import { loadGcide } from './corpora/gcide.ts';
import { sampleQueries } from './corpora/queries.ts';
import { childArgs, runChild, sendResult, since } from './lib/child.ts';
import { cpuMs } from './lib/machine.ts';
import { summarizeLatencies, type LatencySummary } from './lib/metrics.ts';
import { printTable, type Row } from './lib/table.ts';
import { ENGINE_NAMES, openEngine, selectedEngines, type EngineName } from './engines/index.ts';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 1000);

interface QueryResult {
  cold: LatencySummary;
  wall: LatencySummary;
  cpu: LatencySummary;
  meanHits: number;
  buildMs: number;
  examples: string[];
}

async function runEngine(engine: EngineName): Promise<QueryResult> {
  const { docs } = loadGcide();
  const warm = sampleQueries(docs, QUERIES, 1);
  const queries = sampleQueries(docs, QUERIES, 2);
  const t0 = performance.now();
  const idx = await openEngine(engine, {});
  for (const d of docs) idx.add(d);
  await idx.commit();
  const buildMs = since(t0);
  await idx.settle(); // timed queries run on the settled index, not during a background merge
  docs.length = 0;
  (globalThis as { gc?: () => void }).gc?.();
  const cold: number[] = [];
  for (const q of warm) {
    const w0 = performance.now();
    idx.search(q, 10);
    cold.push(since(w0));
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const c0 = cpuMs();
    const w0 = performance.now();
    hits += idx.search(q, 10).length;
    wall.push(since(w0));
    cpu.push(cpuMs() - c0);
  }
  await idx.close();
  return {
    cold: summarizeLatencies(cold),
    wall: summarizeLatencies(wall),
    cpu: summarizeLatencies(cpu),
    meanHits: hits / queries.length,
    buildMs,
    examples: queries.slice(0, 8),
  };
}

async function main(): Promise<void> {
  const args = childArgs();
  if (args) {
    sendResult(await runEngine(args.engine as EngineName));
    return;
  }
  const engines = selectedEngines();
  const res = new Map<EngineName, QueryResult>();
  for (const e of engines) {
    console.log(`gcide-query: ${e} ...`);
    res.set(e, await runChild<QueryResult>(import.meta.url, { engine: e }));
  }
  const cols = ENGINE_NAMES;
  const v = (f: (r: QueryResult) => number): (number | undefined)[] =>
    cols.map((e) => (res.has(e) ? f(res.get(e)!) : undefined));
  const rows: Row[] = [
    { label: 'wall mean ms', values: v((r) => r.wall.meanMs), digits: 3 },
    { label: 'wall p50 ms', values: v((r) => r.wall.p50Ms), digits: 3 },
    { label: 'wall p99 ms', values: v((r) => r.wall.p99Ms), digits: 3 },
    { label: 'wall max ms', values: v((r) => r.wall.maxMs), digits: 3 },
    { label: 'queries/s (sequential, wall)', values: v((r) => r.wall.qps), digits: 0 },
    { label: 'process CPU mean ms (all threads)', values: v((r) => r.cpu.meanMs), digits: 3 },
    { label: 'process CPU p50 ms', values: v((r) => r.cpu.p50Ms), digits: 3 },
    { label: 'process CPU p99 ms', values: v((r) => r.cpu.p99Ms), digits: 3 },
    { label: 'cold (warm-up pass): wall mean ms', values: v((r) => r.cold.meanMs), digits: 3 },
    { label: 'cold (warm-up pass): wall p99 ms', values: v((r) => r.cold.p99Ms), digits: 3 },
    { label: 'mean hits returned (of 10)', values: v((r) => r.meanHits), digits: 2 },
    { label: 'build+commit ms (in memory)', values: v((r) => r.buildMs), digits: 0 },
  ];
  const first = [...res.values()][0];
  printTable(
    `GCIDE query latency, top-10, ${QUERIES} queries of 2-3 words (e.g. ${first?.examples
      .slice(0, 4)
      .map((q) => `"${q}"`)
      .join(', ')})`,
    cols,
    rows,
  );
}

await main();
