/**
 * Same-process A/B of the search path of two checkouts of this repository: this one and
 * `--old` (e.g. an earlier commit). Both open the index of a search/http.ts data set (the old
 * one a copy, the index is locked per process) and run the engine part of the server's search
 * (src/search/service.ts runPlan: the query, highlights, summaries, related lists) for the data
 * set's person, count=10, over the same normal queries (1-2 words as search/http.ts sends, and
 * 2-3 word GCIDE queries), in alternating rounds. Prints CPU ms per search of each side per round
 * and their ratio, and the number of responses that differ byte for byte (must be 0).
 *
 *   node --import tsx bench/search/ab.ts --old DIR --data DATA_DIR [--queries 500] [--rounds 8]
 *
 * AB_LIMITS (JSON) replaces this checkout's search limits (src/search/limits.ts), e.g. '{"maxClauses":1024}'
 * to run it without budgets.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGcide } from '../corpora/gcide.ts';
import { sampleQueries } from '../corpora/queries.ts';
import { DATASOURCES, sentencePool, userTokenSets } from '../corpora/scale.ts';
import { createRng } from '../lib/prng.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : def;
};
const NEW_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OLD_ROOT = resolve(arg('old', ''));
const DATA = arg('data', '');
const QUERIES = Number(arg('queries', '500'));
const ROUNDS = Number(arg('rounds', '8'));

/** One side: its engine and search service, over its own open index. */
async function side(root: string, indexDir: string) {
  const engine = await import(join(root, 'engine/index.ts'));
  const service = await import(join(root, 'src/search/service.ts'));
  const { RelatedCache } = await import(join(root, 'src/search/related-cache.ts'));
  const { DOCUMENT_SCHEMA } = await import(join(root, 'src/documents/index-schema.ts'));
  let limits: unknown;
  try {
    const defaults = (await import(join(root, 'src/search/limits.ts'))).DEFAULT_SEARCH_LIMITS;
    limits = process.env.AB_LIMITS && root === NEW_ROOT ? JSON.parse(process.env.AB_LIMITS) : defaults;
  } catch {
    limits = undefined; // a checkout without search budgets
  }
  const index = await engine.openIndex({
    directory: await engine.FsDirectory.open(indexDir),
    schema: DOCUMENT_SCHEMA,
    merge: false,
  });
  const searcher = index.reader.searcher();
  const related = new RelatedCache();
  return {
    index,
    /** The response body of `query` as JSON text. */
    run(plan: Record<string, unknown>): string {
      const out = service.runPlan(searcher, related, limits ? { ...plan, limits } : plan);
      return JSON.stringify('body' in out ? out.body : out);
    },
  };
}

async function main(): Promise<void> {
  if (!DATA || !arg('old', '')) throw new Error('--old DIR and --data DATA_DIR are required');
  const copy = mkdtempSync(join(tmpdir(), 'ab-index-'));
  cpSync(join(DATA, 'index'), copy, { recursive: true });
  try {
    const fresh = await side(NEW_ROOT, join(DATA, 'index'));
    const old = await side(OLD_ROOT, copy);
    const gcide = loadGcide().docs;
    const sentences = sentencePool(gcide);
    const rng = createRng(99);
    const queries = new Set<string>();
    while (queries.size < QUERIES / 2) {
      const w = rng
        .pick(sentences)
        .toLowerCase()
        .match(/[a-z]{4,}/g);
      if (w) queries.add(rng.next() < 0.5 ? rng.pick(w) : `${rng.pick(w)} ${rng.pick(w)}`);
    }
    for (const q of sampleQueries(gcide, QUERIES / 2, 7)) queries.add(q);
    const groups = userTokenSets(1)[0];
    const tokens = DATASOURCES.flatMap((ds) => [`${ds}|*`, ...groups.map((g) => `${ds}|g|${g}`)]).sort();
    const plans = [...queries].map((query) => ({
      query,
      language: 'de',
      tokens,
      filters: [],
      count: 10,
      offset: 0,
      now: Date.UTC(2026, 0, 1),
      subs: {},
    }));
    let differ = 0;
    for (const p of plans) if (old.run(p) !== fresh.run(p)) differ++; // warm-up, and the comparison
    const cpu = (run: (p: Record<string, unknown>) => string) => {
      const t = process.cpuUsage();
      for (const p of plans) run(p);
      const u = process.cpuUsage(t);
      return (u.user + u.system) / 1000 / plans.length;
    };
    console.log(`| round | old CPU ms/search | new CPU ms/search | new/old |`);
    console.log('|--:|--:|--:|--:|');
    let sumOld = 0;
    let sumNew = 0;
    for (let r = 0; r < ROUNDS; r++) {
      // alternating which side goes first
      let c: number;
      let d: number;
      if (r % 2 === 0) {
        c = cpu(old.run);
        d = cpu(fresh.run);
      } else {
        d = cpu(fresh.run);
        c = cpu(old.run);
      }
      sumOld += c;
      sumNew += d;
      console.log(`| ${r + 1} | ${c.toFixed(3)} | ${d.toFixed(3)} | ${(d / c).toFixed(3)} |`);
    }
    console.log(
      `| all | ${(sumOld / ROUNDS).toFixed(3)} | ${(sumNew / ROUNDS).toFixed(3)} | ${(sumNew / sumOld).toFixed(3)} |`,
    );
    console.log(
      `\n${plans.length} searches per round; ${differ} of ${plans.length} responses differ byte for byte; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    await fresh.index.close();
    await old.index.close();
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
