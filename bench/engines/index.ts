/** Opens any of the three engines by name behind the common EngineAdapter interface. */
import { openMiniSearch } from './minisearch.ts';
import { openOurs } from './ours.ts';
import { openSqlite } from './sqlite.ts';
import { ENGINE_NAMES, type EngineAdapter, type EngineName, type EngineOptions } from './types.ts';

export type { EngineAdapter, EngineName, EngineOptions, KeywordFilter } from './types.ts';
export { ENGINE_NAMES };

export function openEngine(name: EngineName, opts: EngineOptions = {}): Promise<EngineAdapter> {
  switch (name) {
    case 'ours':
      return openOurs(opts);
    case 'minisearch':
      return openMiniSearch(opts);
    case 'sqlite':
      return openSqlite(opts);
  }
}

/** Engines to run: BENCH_ENGINES=ours,sqlite selects; by default all three. */
export function selectedEngines(allowed: EngineName[] = ENGINE_NAMES): EngineName[] {
  const env = process.env.BENCH_ENGINES;
  const names = env ? (env.split(',').map((s) => s.trim()) as EngineName[]) : [...allowed];
  return names.filter((n) => allowed.includes(n));
}
