/**
 * Scenario "gcide-build": index build throughput on GCIDE (126,240 entries,
 * ~40 MB), each engine in its own child process, twice:
 *  - in memory (ours: MemoryDirectory; SQLite ':memory:'; MiniSearch): docs/s
 *    and MB/s including the final commit, and process RSS after build (corpus
 *    array released, full GCs via --expose-gc and 500 ms to settle: lib/metrics.ts);
 *  - on disk (ours: FsDirectory in a temp dir; SQLite: file DB; MiniSearch:
 *    JSON dump): the same throughput, index size on disk, and the latency of
 *    small commits (10 x [add 100 docs, commit]; MiniSearch 2 x) on the built index.
 *
 * Run: cd bench && npm run gcide-build
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGcide } from './corpora/gcide.ts';
import type { BenchDoc } from './corpora/types.ts';
import { childArgs, runChild, sendResult, since } from './lib/child.ts';
import { MB, rssAfterGcMB, summarizeLatencies } from './lib/metrics.ts';
import { printTable, type Row } from './lib/table.ts';
import { ENGINE_NAMES, openEngine, selectedEngines, type EngineName } from './engines/index.ts';

interface BuildResult {
  docs: number;
  megabytes: number;
  buildMs: number;
  finalCommitMs: number;
  rssBaseMB: number;
  rssMB: number;
  heapUsedMB: number;
  externalMB: number;
  sizeMB: number | null;
  commitMeanMs: number | null;
  commitP50Ms: number | null;
  commitMaxMs: number | null;
}

async function runEngine(engine: EngineName, store: 'mem' | 'disk'): Promise<BuildResult> {
  const base = await rssAfterGcMB();
  const corpus: { docs: BenchDoc[] | null; bytes: number } = loadGcide();
  const docs = corpus.docs!;
  const sample = docs.filter((_, i) => i % 97 === 0).slice(0, 1000);
  const n = docs.length;
  const dir = store === 'disk' ? mkdtempSync(join(tmpdir(), `bench-gcide-${engine}-`)) : undefined;
  try {
    const t0 = performance.now();
    const idx = await openEngine(engine, { dir });
    for (let i = 0; i < n; i++) idx.add(docs[i]);
    const tc = performance.now();
    await idx.commit();
    const finalCommitMs = since(tc);
    const buildMs = since(t0);
    corpus.docs = null;
    docs.length = 0;
    const mem = await rssAfterGcMB();
    let commits: number[] = [];
    if (store === 'disk') {
      // MiniSearch persists by rewriting its whole JSON (~14 s each here), so it gets 2 rounds.
      const rounds = engine === 'minisearch' ? 2 : 10;
      for (let r = 0; r < rounds; r++) {
        for (let j = 0; j < 100; j++) {
          const d = sample[(r * 100 + j) % sample.length];
          idx.add({ ...d, id: `inc-${r}-${j}` });
        }
        const c0 = performance.now();
        await idx.commit();
        commits.push(since(c0));
      }
    }
    const size = idx.sizeOnDiskBytes();
    await idx.close();
    const cs = commits.length ? summarizeLatencies(commits) : null;
    return {
      docs: n,
      megabytes: corpus.bytes / MB,
      buildMs,
      finalCommitMs,
      rssBaseMB: base.rssMB,
      rssMB: mem.rssMB,
      heapUsedMB: mem.heapUsedMB,
      externalMB: mem.externalMB,
      sizeMB: size === null ? null : size / MB,
      commitMeanMs: cs?.meanMs ?? null,
      commitP50Ms: cs?.p50Ms ?? null,
      commitMaxMs: cs?.maxMs ?? null,
    };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = childArgs();
  if (args) {
    sendResult(await runEngine(args.engine as EngineName, args.store as 'mem' | 'disk'));
    return;
  }
  const engines = selectedEngines();
  const mem = new Map<EngineName, BuildResult>();
  const disk = new Map<EngineName, BuildResult>();
  for (const e of engines) {
    for (const [store, map] of [
      ['mem', mem],
      ['disk', disk],
    ] as const) {
      console.log(`gcide-build: ${e} (${store}) ...`);
      try {
        map.set(e, await runChild<BuildResult>(import.meta.url, { engine: e, store }));
      } catch (err) {
        console.log(`  ${e} (${store}) failed: ${(err as Error).message}`);
      }
    }
  }
  const cols = ENGINE_NAMES;
  const any = [...mem.values(), ...disk.values()][0];
  const v = (m: Map<EngineName, BuildResult>, f: (r: BuildResult) => number | null): (number | null | undefined)[] =>
    cols.map((e) => {
      const r = m.get(e);
      return r ? f(r) : undefined;
    });
  const rows: Row[] = [
    { label: 'in memory: docs/s (incl. commit)', values: v(mem, (r) => r.docs / (r.buildMs / 1000)), digits: 0 },
    { label: 'in memory: MB/s', values: v(mem, (r) => r.megabytes / (r.buildMs / 1000)), digits: 2 },
    { label: 'in memory: build ms', values: v(mem, (r) => r.buildMs), digits: 0 },
    { label: 'in memory: final commit ms', values: v(mem, (r) => r.finalCommitMs), digits: 0 },
    { label: 'in memory: RSS after build MB', values: v(mem, (r) => r.rssMB), digits: 0 },
    { label: '  (RSS before loading corpus MB)', values: v(mem, (r) => r.rssBaseMB), digits: 0 },
    { label: '  (JS heap used after build MB)', values: v(mem, (r) => r.heapUsedMB), digits: 0 },
    {
      label: '  (external incl. ArrayBuffers MB; not SharedArrayBuffers)',
      values: v(mem, (r) => r.externalMB),
      digits: 0,
    },
    { label: 'on disk: docs/s (incl. commit)', values: v(disk, (r) => r.docs / (r.buildMs / 1000)), digits: 0 },
    { label: 'on disk: MB/s', values: v(disk, (r) => r.megabytes / (r.buildMs / 1000)), digits: 2 },
    { label: 'on disk: final commit ms', values: v(disk, (r) => r.finalCommitMs), digits: 0 },
    { label: 'on disk: index size MB', values: v(disk, (r) => r.sizeMB), digits: 1 },
    { label: 'on disk: RSS after build MB', values: v(disk, (r) => r.rssMB), digits: 0 },
    { label: 'commit of +100 docs: mean ms', values: v(disk, (r) => r.commitMeanMs), digits: 1 },
    { label: 'commit of +100 docs: p50 ms', values: v(disk, (r) => r.commitP50Ms), digits: 1 },
    { label: 'commit of +100 docs: max ms', values: v(disk, (r) => r.commitMaxMs), digits: 1 },
  ];
  printTable(
    `GCIDE build (${any?.docs.toLocaleString('en-US')} docs, ${any?.megabytes.toFixed(1)} MB; one process per engine and mode)`,
    cols,
    rows,
  );
}

await main();
