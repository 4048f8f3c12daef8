/**
 * Scenario "scale": a deterministic set of BENCH_SCALE_DOCS (default
 * 1,000,000) documents generated from GCIDE text (corpora/scale.ts), with
 * keyword columns datasource and acl. For ours (FsDirectory) and SQLite FTS5
 * (file DB), each step in its own child process:
 *  1. build: generate and add all docs, one commit; build time counts add()
 *     and commit() only (not the generator); docs/s, MB/s, size on disk, RSS.
 *  2. query: open the committed index from disk in a fresh process (open
 *     time = openIndex until the first searcher answers), then 2-3 word
 *     queries (top-10) without filter and with an access-token filter of 50
 *     tokens (20 deterministic users; the fraction of docs each user sees is
 *     printed). SQLite runs the first BENCH_SCALE_QUERIES_SQLITE (100) of the
 *     BENCH_SCALE_QUERIES (500) queries: at 1M docs an OR query with a very
 *     common word costs it about a second.
 * MiniSearch is left out (it keeps everything in the JS heap; at 126k docs it
 * already needs ~0.6 GB).
 *
 * Run: cd bench && npm run scale   (BENCH_SCALE_DOCS=200000 for a quick run;
 * BENCH_ENGINES=ours to skip SQLite; BENCH_TMP=/path for the index folders;
 * BENCH_SCALE_DIR=/path keeps the index folders in /path/<engine> instead of a
 * temporary folder that is removed at the end, and BENCH_SCALE_REUSE=1 then
 * skips the build when that folder is not empty, so only the queries run;
 * BENCH_SCALE_COMPACT=1 compacts the built index before the queries, in its own
 * child process: ours merges to one segment, as the service's idle compaction
 * does, SQLite runs FTS5 'optimize'; the compaction time is printed)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGcide } from './corpora/gcide.ts';
import { sampleQueries } from './corpora/queries.ts';
import { generateScaleDocs, sentencePool, userTokenSets } from './corpora/scale.ts';
import type { BenchDoc } from './corpora/types.ts';
import { childArgs, runChild, sendResult, since } from './lib/child.ts';
import { cpuMs } from './lib/machine.ts';
import { MB, rssAfterGcMB, summarizeLatencies, type LatencySummary } from './lib/metrics.ts';
import { printTable, type Row } from './lib/table.ts';
import { openEngine, selectedEngines, type EngineName } from './engines/index.ts';

const DOCS = Number(process.env.BENCH_SCALE_DOCS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_SCALE_QUERIES ?? 500);
/** SQLite needs ~1 s for an OR query with a very common word at 1M docs, so it gets fewer queries by default. */
const SQLITE_QUERIES = Number(process.env.BENCH_SCALE_QUERIES_SQLITE ?? 100);
const USERS = 20;
/** When set, index folders live in KEEP_DIR/<engine> and are kept; with REUSE, a non-empty folder is queried without a build. */
const KEEP_DIR = process.env.BENCH_SCALE_DIR;
const REUSE = process.env.BENCH_SCALE_REUSE === '1';
const COMPACT = process.env.BENCH_SCALE_COMPACT === '1';

interface BuildResult {
  docs: number;
  megabytes: number;
  buildMs: number;
  finalCommitMs: number;
  sizeMB: number | null;
  rssMB: number;
  visibleFractions: number[];
}

interface QueryResult {
  queries: number;
  openMs: number;
  firstQueryMs: number;
  plain: LatencySummary;
  filtered: LatencySummary;
  filteredCpu: LatencySummary;
  plainHits: number;
  filteredHits: number;
}

function gcideSentencesAndQueries(): { pool: string[]; docs: BenchDoc[] } {
  const { docs } = loadGcide();
  return { pool: sentencePool(docs), docs };
}

async function build(engine: EngineName, dir: string): Promise<BuildResult> {
  const { pool, docs } = gcideSentencesAndQueries();
  docs.length = 0;
  const users = userTokenSets(USERS).map((u) => new Set(u));
  const visible = new Array<number>(USERS).fill(0);
  const idx = await openEngine(engine, { dir, keywordFields: ['datasource', 'acl'] });
  let addMs = 0;
  let bytes = 0;
  let n = 0;
  for (const d of generateScaleDocs(pool, DOCS)) {
    bytes += Buffer.byteLength(d.title) + Buffer.byteLength(d.body);
    const acl = d.keywords!.acl;
    for (let u = 0; u < USERS; u++) if (acl.some((t) => users[u].has(t))) visible[u]++;
    const t0 = performance.now();
    idx.add(d);
    addMs += since(t0);
    if (++n % 200_000 === 0) console.log(`${n} docs added, ${(addMs / 1000).toFixed(1)} s in add()`);
  }
  const tc = performance.now();
  await idx.commit();
  const finalCommitMs = since(tc);
  const mem = await rssAfterGcMB();
  const size = idx.sizeOnDiskBytes();
  await idx.close();
  return {
    docs: n,
    megabytes: bytes / MB,
    buildMs: addMs + finalCommitMs,
    finalCommitMs,
    sizeMB: size === null ? null : size / MB,
    rssMB: mem.rssMB,
    visibleFractions: visible.map((v) => v / n),
  };
}

/** Compacts the committed index (merges on; see EngineAdapter.compact); returns its wall time. */
async function compact(engine: EngineName, dir: string): Promise<{ ms: number }> {
  const idx = await openEngine(engine, { dir, keywordFields: ['datasource', 'acl'] });
  const t0 = performance.now();
  await idx.compact();
  const ms = since(t0);
  await idx.close();
  return { ms };
}

async function query(engine: EngineName, dir: string): Promise<QueryResult> {
  const { docs } = gcideSentencesAndQueries();
  const warm = sampleQueries(docs, 100, 11);
  const queries = sampleQueries(docs, engine === 'sqlite' ? SQLITE_QUERIES : QUERIES, 12);
  docs.length = 0;
  const users = userTokenSets(USERS);
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  // Queries run over the index as committed: without this, reopening the ~30 segments the build
  // leaves would start a background merge that runs during the timed queries.
  const idx = await openEngine(engine, { dir, keywordFields: ['datasource', 'acl'], backgroundMerges: false });
  const openMs = since(t0);
  console.log(`opened in ${openMs.toFixed(0)} ms; running ${queries.length} queries x 2`);
  const t1 = performance.now();
  idx.search('water', 10);
  const firstQueryMs = since(t1);
  for (const [i, q] of warm.entries()) idx.search(q, 10, { field: 'acl', anyOf: users[i % USERS] });
  const plain: number[] = [];
  const filtered: number[] = [];
  const filteredCpu: number[] = [];
  let plainHits = 0;
  let filteredHits = 0;
  for (const [i, q] of queries.entries()) {
    let w0 = performance.now();
    plainHits += idx.search(q, 10).length;
    plain.push(since(w0));
    const c0 = cpuMs();
    w0 = performance.now();
    filteredHits += idx.search(q, 10, { field: 'acl', anyOf: users[i % USERS] }).length;
    filtered.push(since(w0));
    filteredCpu.push(cpuMs() - c0);
    if ((i + 1) % 100 === 0) console.log(`${i + 1} queries done`);
  }
  await idx.close();
  return {
    queries: queries.length,
    openMs,
    firstQueryMs,
    plain: summarizeLatencies(plain),
    filtered: summarizeLatencies(filtered),
    filteredCpu: summarizeLatencies(filteredCpu),
    plainHits: plainHits / queries.length,
    filteredHits: filteredHits / queries.length,
  };
}

async function main(): Promise<void> {
  const args = childArgs();
  if (args) {
    const engine = args.engine as EngineName;
    sendResult(
      args.step === 'build'
        ? await build(engine, args.dir)
        : args.step === 'compact'
          ? await compact(engine, args.dir)
          : await query(engine, args.dir),
    );
    return;
  }
  const engines = selectedEngines(['ours', 'sqlite']);
  const builds = new Map<EngineName, BuildResult>();
  const queries = new Map<EngineName, QueryResult>();
  const compactMs = new Map<EngineName, number>();
  for (const e of engines) {
    const dir = KEEP_DIR
      ? join(KEEP_DIR, e)
      : mkdtempSync(join(process.env.BENCH_TMP ?? tmpdir(), `bench-scale-${e}-`));
    const reuse = KEEP_DIR !== undefined && REUSE && existsSync(dir) && readdirSync(dir).length > 0;
    try {
      if (reuse) console.log(`scale: ${e} reusing the index in ${dir} (no build)`);
      else {
        if (KEEP_DIR) {
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir, { recursive: true });
        }
        console.log(`scale: ${e} build of ${DOCS.toLocaleString('en-US')} docs in ${dir} ...`);
        builds.set(e, await runChild<BuildResult>(import.meta.url, { engine: e, step: 'build', dir }));
      }
      if (COMPACT) {
        console.log(`scale: ${e} compacting ...`);
        const c = await runChild<{ ms: number }>(import.meta.url, { engine: e, step: 'compact', dir });
        compactMs.set(e, c.ms);
        console.log(`scale: ${e} compacted in ${(c.ms / 1000).toFixed(1)} s`);
      }
      console.log(`scale: ${e} open + queries ...`);
      queries.set(e, await runChild<QueryResult>(import.meta.url, { engine: e, step: 'query', dir }));
    } catch (err) {
      console.log(`  ${e} failed: ${(err as Error).message}`);
    } finally {
      if (!KEEP_DIR) rmSync(dir, { recursive: true, force: true });
    }
  }
  const cols: EngineName[] = ['ours', 'sqlite'];
  const b = (f: (r: BuildResult) => number | null): (number | null | undefined)[] =>
    cols.map((e) => (builds.has(e) ? f(builds.get(e)!) : undefined));
  const q = (f: (r: QueryResult) => number): (number | undefined)[] =>
    cols.map((e) => (queries.has(e) ? f(queries.get(e)!) : undefined));
  const anyBuild = [...builds.values()][0];
  const fr = anyBuild ? [...anyBuild.visibleFractions].sort((x, y) => x - y) : [];
  const rows: Row[] = [
    { label: 'build docs/s (incl. commit)', values: b((r) => r.docs / (r.buildMs / 1000)), digits: 0 },
    { label: 'build MB/s', values: b((r) => r.megabytes / (r.buildMs / 1000)), digits: 2 },
    { label: 'build s (add + commit)', values: b((r) => r.buildMs / 1000), digits: 1 },
    { label: 'final commit ms', values: b((r) => r.finalCommitMs), digits: 0 },
    { label: 'index size on disk MB', values: b((r) => r.sizeMB), digits: 0 },
    { label: 'RSS after build MB', values: b((r) => r.rssMB), digits: 0 },
    ...(COMPACT
      ? [
          {
            label: 'compaction s (before the queries)',
            values: cols.map((e) => (compactMs.has(e) ? compactMs.get(e)! / 1000 : undefined)),
            digits: 1,
          },
        ]
      : []),
    { label: 'timed queries (same sample, prefix)', values: q((r) => r.queries), digits: 0 },
    { label: 'open committed index ms', values: q((r) => r.openMs), digits: 0 },
    { label: 'first query after open ms', values: q((r) => r.firstQueryMs), digits: 1 },
    { label: 'no filter: mean ms', values: q((r) => r.plain.meanMs), digits: 2 },
    { label: 'no filter: p50 ms', values: q((r) => r.plain.p50Ms), digits: 2 },
    { label: 'no filter: p99 ms', values: q((r) => r.plain.p99Ms), digits: 2 },
    { label: 'acl filter (50 tokens): mean ms', values: q((r) => r.filtered.meanMs), digits: 2 },
    { label: 'acl filter (50 tokens): p50 ms', values: q((r) => r.filtered.p50Ms), digits: 2 },
    { label: 'acl filter (50 tokens): p99 ms', values: q((r) => r.filtered.p99Ms), digits: 2 },
    { label: 'acl filter: process CPU p99 ms', values: q((r) => r.filteredCpu.p99Ms), digits: 2 },
    { label: 'acl filter: queries/s', values: q((r) => r.filtered.qps), digits: 0 },
    {
      label: 'mean hits, no filter / filter',
      values: cols.map((e) =>
        queries.has(e)
          ? `${queries.get(e)!.plainHits.toFixed(1)} / ${queries.get(e)!.filteredHits.toFixed(1)}`
          : undefined,
      ),
    },
  ];
  const visibility = fr.length
    ? `; a user sees ${(fr[0] * 100).toFixed(0)}-${(fr[fr.length - 1] * 100).toFixed(0)}% of docs (median ${(fr[fr.length >> 1] * 100).toFixed(0)}%)`
    : '; reused index (no build figures)';
  printTable(
    `Scale: ${(anyBuild?.docs ?? DOCS).toLocaleString('en-US')} generated docs (${anyBuild ? anyBuild.megabytes.toFixed(0) : '?'} MB), on disk, top-10${visibility}`,
    cols,
    rows,
  );
}

await main();
