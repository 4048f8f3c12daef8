/**
 * Scenario "relevance": nDCG@10 and Recall@100 on SciFact (train queries and
 * qrels), Cranfield (gain = 5 - code) and CISI (binary), for this engine,
 * MiniSearch and SQLite FTS5 side by side. In-memory indexes, top-100 per
 * query, English analysis. Each engine runs in its own child process.
 *
 * Run: cd bench && npm run relevance   (BENCH_ENGINES=ours,sqlite to select)
 */
import { loadCisi } from './corpora/cisi.ts';
import { loadCranfield } from './corpora/cranfield.ts';
import { loadSciFact } from './corpora/scifact.ts';
import type { RelevanceSet } from './corpora/types.ts';
import { childArgs, runChild, sendResult, since } from './lib/child.ts';
import { evaluateRuns, type RelevanceScores } from './lib/metrics.ts';
import { printTable, type Row } from './lib/table.ts';
import { clauseLimitHits } from './engines/ours.ts';
import { ENGINE_NAMES, openEngine, selectedEngines, type EngineName } from './engines/index.ts';

const SETS: Record<string, () => RelevanceSet> = { scifact: loadSciFact, cranfield: loadCranfield, cisi: loadCisi };

interface SetResult extends RelevanceScores {
  set: string;
  buildMs: number;
  searchMs: number;
  /** Queries shortened because they hit our engine's clause limit (cumulative over sets). */
  shortened: number;
}

async function runEngine(engine: EngineName, titleBoost?: number): Promise<SetResult[]> {
  const out: SetResult[] = [];
  for (const [key, load] of Object.entries(SETS)) {
    const set = load();
    const idx = await openEngine(engine, { titleBoost });
    let t0 = performance.now();
    for (const d of set.docs) idx.add(d);
    await idx.commit();
    const buildMs = since(t0);
    const runs = new Map<string, string[]>();
    t0 = performance.now();
    for (const q of set.queries) runs.set(q.id, idx.search(q.text, 100));
    const searchMs = since(t0);
    await idx.close();
    out.push({ set: key, ...evaluateRuns(runs, set.qrels), buildMs, searchMs, shortened: clauseLimitHits });
  }
  return out;
}

async function main(): Promise<void> {
  const args = childArgs();
  if (args) {
    sendResult(await runEngine(args.engine as EngineName, args.titleBoost ? Number(args.titleBoost) : undefined));
    return;
  }
  const engines = selectedEngines();
  // Ours runs twice: with the title boost the service schema uses (2) and with boost 1.
  const runsWanted: [string, EngineName, Record<string, string>][] = engines.map((e) => [e, e, {}]);
  if (engines.includes('ours')) runsWanted.push(['ours title^1', 'ours', { titleBoost: '1' }]);
  const results = new Map<string, SetResult[]>();
  for (const [col, e, extra] of runsWanted) {
    console.log(`relevance: running ${col} ...`);
    results.set(col, await runChild<SetResult[]>(import.meta.url, { engine: e, ...extra }));
  }
  const cols: string[] = [...ENGINE_NAMES, 'ours title^1'];
  const get = (e: string, set: string): SetResult | undefined => results.get(e)?.find((r) => r.set === set);
  const rows: Row[] = [];
  for (const [set, label] of [
    ['scifact', 'SciFact train'],
    ['cranfield', 'Cranfield'],
    ['cisi', 'CISI'],
  ] as const) {
    const n = get(engines[0], set)?.queries;
    rows.push({ label: `${label} nDCG@10 (${n} q)`, values: cols.map((e) => get(e, set)?.ndcg10), digits: 4 });
    rows.push({ label: `${label} Recall@100`, values: cols.map((e) => get(e, set)?.recall100), digits: 4 });
    rows.push({ label: `${label} build+commit ms`, values: cols.map((e) => get(e, set)?.buildMs), digits: 0 });
    rows.push({
      label: `${label} all queries ms (top-100)`,
      values: cols.map((e) => get(e, set)?.searchMs),
      digits: 0,
    });
    rows.push({
      label: `${label} queries over clause limit (cum.)`,
      values: cols.map((e) => (e.startsWith('ours') ? get(e, set)?.shortened : undefined)),
      digits: 0,
    });
  }
  printTable(
    'Relevance (in-memory indexes, English analysis, top-100 per query; ours: title boost 2 unless noted)',
    cols,
    rows,
  );
}

await main();
