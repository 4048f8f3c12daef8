/**
 * Where the access-token-filtered queries of the scale scenario spend their
 * time: opens an index built by `scale.ts` (BENCH_SCALE_DIR=DIR keeps it in
 * DIR/ours) in-process and runs the same warm-up and timed queries with the
 * same 20 users' 50-token filters, `rounds` times over. Prints per-query CPU
 * time percentiles (each query's least CPU over the rounds, which filters out
 * the noise of a shared machine, and the plain per-run figures) and the
 * slowest queries with their hit counts.
 *
 *   node --import tsx bench/search/acl-profile.ts DIR/ours [rounds=3] [--plain] [--only=i,j,...] [--dump=FILE] [--compare=FILE]
 *
 * --plain runs the queries without the filter (to check unfiltered queries do
 * not regress); --only runs just those query indexes (for `node --cpu-prof`); --dump writes
 * every filtered query's hits (keys and scores) to FILE; --compare checks them
 * against such a file (exit code 1 on any difference).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { FsDirectory, openIndex } from '../../engine/index.ts';
import { loadGcide } from '../corpora/gcide.ts';
import { sampleQueries } from '../corpora/queries.ts';
import { userTokenSets } from '../corpora/scale.ts';
import { cpuMs } from '../lib/machine.ts';

const USERS = 20;
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flag = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const dir = positional[0];
if (!dir) throw new Error('usage: acl-profile.ts INDEX_DIR [rounds] [--only=i,j] [--dump=FILE] [--compare=FILE]');
const rounds = Number(positional[1] ?? 3);
const only = flag('only')?.split(',').map(Number);
const plain = process.argv.includes('--plain');

const { docs } = loadGcide();
const warm = sampleQueries(docs, 100, 11);
const queries = sampleQueries(docs, 500, 12);
docs.length = 0;
const users = userTokenSets(USERS);

const t0 = performance.now();
const index = await openIndex({
  directory: await FsDirectory.open(dir),
  schema: { textFields: { title: { boost: 2 }, body: {} }, keywordFields: ['datasource', 'acl'], numericFields: [] },
  commitIntervalMs: 0,
});
console.log(`opened in ${(performance.now() - t0).toFixed(0)} ms, ${index.reader.searcher().numDocs} docs`);

const search = (q: string, user: number) =>
  index.reader.searcher().search({
    query: q,
    language: 'en',
    limit: 10,
    filter: plain ? undefined : { keyword: 'acl', anyOf: users[user] },
  });

for (const [i, q] of warm.entries()) search(q, i % USERS);

const picked = only ?? queries.map((_, i) => i);
const cpu = new Float64Array(queries.length).fill(Infinity);
const wall = new Float64Array(queries.length).fill(Infinity);
const allCpu: number[] = [];
const allWall: number[] = [];
const hits: { key: string; score: number }[][] = [];
const totals: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const i of picked) {
    const c0 = cpuMs();
    const w0 = performance.now();
    const res = search(queries[i], i % USERS);
    const w = performance.now() - w0;
    const c = cpuMs() - c0;
    allCpu.push(c);
    allWall.push(w);
    if (c < cpu[i]) cpu[i] = c;
    if (w < wall[i]) wall[i] = w;
    if (r === 0) {
      hits[i] = res.hits.map((h) => ({ key: h.key, score: h.score }));
      totals[i] = res.total;
    }
  }
}

const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const line = (label: string, xs: readonly number[]): string =>
  `${label.padEnd(26)} mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)}  p50 ${pct(xs, 50).toFixed(2)}  p90 ${pct(xs, 90).toFixed(2)}  p99 ${pct(xs, 99).toFixed(2)}  max ${pct(xs, 100).toFixed(2)} ms`;
const bestCpu = picked.map((i) => cpu[i]);
const bestWall = picked.map((i) => wall[i]);
console.log(
  `${picked.length} ${plain ? 'unfiltered' : 'filtered'} queries x ${rounds} rounds, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(line('CPU, least of rounds', bestCpu));
console.log(line('wall, least of rounds', bestWall));
console.log(line('CPU, every run', allCpu));
console.log(line('wall, every run', allWall));
console.log('slowest (least CPU over rounds):');
for (const i of [...picked].sort((a, b) => cpu[b] - cpu[a]).slice(0, 15)) {
  console.log(
    `  #${String(i).padStart(3)} user ${String(i % USERS).padStart(2)}  cpu ${cpu[i].toFixed(2)}  wall ${wall[i].toFixed(2)}  total ${totals[i]}  "${queries[i]}"`,
  );
}

const dumpFile = flag('dump');
if (dumpFile) writeFileSync(dumpFile, JSON.stringify(picked.map((i) => ({ i, hits: hits[i] }))));
const compareFile = flag('compare');
let differ = 0;
if (compareFile) {
  const ref = JSON.parse(readFileSync(compareFile, 'utf8')) as { i: number; hits: { key: string; score: number }[] }[];
  for (const { i, hits: want } of ref) {
    if (hits[i] === undefined) continue;
    if (JSON.stringify(hits[i]) !== JSON.stringify(want)) {
      differ++;
      if (differ <= 5)
        console.log(
          `  differs: #${i} "${queries[i]}"\n    got  ${JSON.stringify(hits[i])}\n    want ${JSON.stringify(want)}`,
        );
    }
  }
  console.log(`compare with ${compareFile}: ${differ} of ${ref.length} queries differ`);
}
await index.close();
if (differ > 0) process.exitCode = 1;
