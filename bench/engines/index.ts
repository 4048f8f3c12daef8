/** Opens any of the three engines by name behind the common EngineAdapter interface. */
import { openMiniSearch } from './minisearch.ts';
import { openOurs, oursAvailable } from './ours.ts';
import { openSqlite } from './sqlite.ts';
import { ENGINE_NAMES, type EngineAdapter, type EngineName, type EngineOptions } from './types.ts';

export type { EngineAdapter, EngineName, EngineOptions, KeywordFilter } from './types.ts';
export { ENGINE_NAMES, oursAvailable };

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

/**
 * Engines to run: BENCH_ENGINES=ours,sqlite selects; by default all three,
 * with ours skipped (and a note printed) while ../engine/index.ts is not usable.
 */
export async function selectedEngines(allowed: EngineName[] = ENGINE_NAMES): Promise<EngineName[]> {
  const env = process.env.BENCH_ENGINES;
  let names = env ? (env.split(',').map((s) => s.trim()) as EngineName[]) : [...allowed];
  names = names.filter((n) => allowed.includes(n));
  if (names.includes('ours') && !(await oursAvailable())) {
    console.log('note: ../engine/index.ts has no usable openIndex yet; "ours" is skipped');
    names = names.filter((n) => n !== 'ours');
  }
  return names;
}
