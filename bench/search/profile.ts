/**
 * Where the time of one search goes: opens a data directory written by
 * `http.ts --keep DIR` in-process and times the engine calls of
 * searchDocuments (search, get, highlight, summary, moreLikeThis,
 * duplicatesOf) over the same queries.
 *
 *   node --import tsx bench/search/profile.ts DIR [queries]
 */
import { Searcher } from '../../engine/index.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { openSearchIndex } from '../../src/search/open.ts';
import { searchDocuments } from '../../src/search/service.ts';
import { openState } from '../../src/open-state.ts';
import { loadGcide } from '../corpora/gcide.ts';
import { sentencePool } from '../corpora/scale.ts';
import { createRng } from '../lib/prng.ts';

const dir = process.argv[2];
const N = Number(process.argv[3] ?? '300');
const config = loadConfig({ DATA_DIR: dir, ADMIN_KEY: 'bench-master-key-0123456789abcdef' });
const state = await openState(config, silentLogger);
const index = await openSearchIndex(config, silentLogger);
const totals = new Map<string, { ms: number; calls: number }>();
const proto = Searcher.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
for (const name of ['search', 'get', 'highlight', 'summary', 'moreLikeThis', 'duplicatesOf', 'withKeyword']) {
  const orig = proto[name];
  proto[name] = function (this: unknown, ...args: unknown[]) {
    const t = performance.now();
    try {
      return orig.apply(this, args);
    } finally {
      const e = totals.get(name) ?? { ms: 0, calls: 0 };
      e.ms += performance.now() - t;
      e.calls++;
      totals.set(name, e);
    }
  };
}
const sentences = sentencePool(loadGcide().docs);
const rng = createRng(99);
const queries: string[] = [];
while (queries.length < N) {
  const w =
    rng
      .pick(sentences)
      .toLowerCase()
      .match(/[a-z]{4,}/g) ?? [];
  if (w.length) queries.push(rng.next() < 0.5 ? rng.pick(w) : `${rng.pick(w)} ${rng.pick(w)}`);
}
const deps = { state, index, now: () => Date.now() };
for (const q of queries.slice(0, 50)) searchDocuments(deps, 'bench.user@example.com', { query: q, count: 10 });
totals.clear();
const t0 = performance.now();
for (const q of queries) searchDocuments(deps, 'bench.user@example.com', { query: q, count: 10 });
const total = performance.now() - t0;
console.log(`${N} searches, ${(total / N).toFixed(2)} ms each, docs ${index.reader.info.docCount}`);
for (const [name, e] of totals)
  console.log(`  ${name.padEnd(14)} ${(e.ms / N).toFixed(2)} ms/search  (${e.calls} calls)`);
await index.close();
await state.close();
