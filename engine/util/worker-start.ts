/**
 * Starting a worker thread whose entry is a TypeScript module of this code base, in every way
 * the code runs: inside the single executable, from the bundled worker script carried as a SEA
 * asset (started with `eval: true`); under tsx, from a bootstrap that registers tsx inside the
 * worker first (inherited --import flags do not give a worker's .ts entry a loader on Node 20);
 * otherwise directly (a runtime that loads .ts by itself). Workers get no inherited execArgv.
 */
import { createRequire } from 'node:module';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const seaSources = new Map<string, string | null>();

/** The bundled source of `asset` when running as a single executable, else null. */
function seaSource(asset: string): string | null {
  let source = seaSources.get(asset);
  if (source !== undefined) return source;
  try {
    const sea = createRequire(import.meta.url)('node:sea') as typeof import('node:sea');
    source = sea.isSea() ? sea.getAsset(asset, 'utf8') : null;
  } catch {
    source = null;
  }
  seaSources.set(asset, source);
  return source;
}

/** Starts the worker whose entry is `entry` (a .ts module URL), bundled as `seaAsset` in the single executable. */
export function startModuleWorker(
  entry: URL,
  seaAsset: string,
  options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {},
): Worker {
  const bundled = seaSource(seaAsset);
  if (bundled !== null) return new Worker(bundled, { ...options, eval: true, execArgv: [] });
  let api: string | null = null;
  try {
    api = import.meta.resolve('tsx/esm/api');
  } catch {
    api = null;
  }
  if (api === null) return new Worker(entry, options);
  const code = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL('data:text/javascript,' + encodeURIComponent(code)), { ...options, execArgv: [] });
}
