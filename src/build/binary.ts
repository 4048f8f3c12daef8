/**
 * Build tool (not loaded by the server): makes the single executable for Linux x64 or arm64 with Node's
 * single executable application (SEA) support. `npm run build:binary` runs this file; the result
 * is dist/enterprise-search (one file, about the size of the node binary).
 *
 * Steps: esbuild bundles src/main.ts into one CommonJS file (SEA runs CommonJS only), with
 * `@node-rs/xxhash` resolved to src/build/xxhash-sea.ts; extractors/worker.ts,
 * engine/merge/merge-worker.ts and src/search/search-worker.ts are bundled apart into CommonJS
 * files of their own. `node --experimental-sea-config` turns the main bundle into a blob that
 * also carries five assets: the browser assets of the pages (web-assets.json, built by
 * web-assets.ts and served by src/web/assets/store.ts), the three worker bundles (extractors/pool.ts,
 * engine/merge/merge-thread.ts and src/search/pool.ts start workers from them with `eval: true`)
 * and the xxhash native addon (loaded by xxhash-sea.ts). postject injects the blob
 * into a copy of the running node binary. The blob carries V8 code cache (faster start: about
 * 0.15 s instead of 0.3 s to print --version). Intermediate files stay in OUT/sea/.
 *
 * Usage: tsx src/build/binary.ts [--out DIR] [--arch x64|arm64]   (default DIR: <repo>/dist, arch: this machine's)
 */
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { SEA_WORKER_ASSET } from '../../extractors/index.ts';
import { SEA_MERGE_WORKER_ASSET } from '../../engine/index.ts';
import { SEA_SEARCH_WORKER_ASSET } from '../search/pool.ts';
import { buildWebAssets, WEB_ASSETS_SEA } from './web-assets.ts';
import { ARCHES, targetParts, type Arch } from './target.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

/** Asset name of the xxhash addon; must equal XXHASH_ASSET in xxhash-sea.ts (not imported: importing it loads the addon). */
const XXHASH_ASSET = 'xxhash.node';

/** The fuse string node's SEA support looks for; postject flips it when it injects the blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export interface BuildOptions {
  /** Output directory; default <repo>/dist. The binary is OUT/enterprise-search. */
  outDir?: string;
  /** Progress lines; default none. */
  log?: (line: string) => void;
  /** Target CPU; default the machine's. Another one is OUT/enterprise-search-linux-<arch> (src/build/target.ts). */
  arch?: Arch;
}

export interface BuildResult {
  /** Absolute path of the executable. */
  binary: string;
  bytes: number;
  /** Milliseconds per step. */
  timings: { bundle: number; blob: number; inject: number };
}

class BuildError extends Error {
  override name = 'BuildError';
  readonly code = 'BUILD_FAILED';
}

/** esbuild settings shared by both bundles. */
const common: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  write: false,
  logLevel: 'warning',
  legalComments: 'none',
  // Pure-ESM sources read import.meta.url at load time; in the CommonJS bundle it is the bundle's own URL.
  define: { 'import.meta.url': '__bundleUrl', 'import.meta.resolve': '__bundleResolve' },
  banner: {
    js: [
      'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;',
      'const __bundleResolve = (s) => { throw new Error("import.meta.resolve(" + s + ") is unavailable in the bundle"); };',
    ].join('\n'),
  },
};

/** Routes the native-addon package to its SEA loader. */
const xxhashForSea: esbuild.Plugin = {
  name: 'xxhash-sea',
  setup(build) {
    build.onResolve({ filter: /^@node-rs\/xxhash$/ }, () => ({ path: join(ROOT, 'src/build/xxhash-sea.ts') }));
  },
};

/**
 * The binary serves the browser assets embedded at build time (src/web/assets/store.ts), so
 * the asset builder's `import('esbuild')` stays out of the bundle (it is never reached there).
 */
const esbuildOutOfBinary: esbuild.Plugin = {
  name: 'esbuild-out-of-binary',
  setup(build) {
    build.onResolve({ filter: /^esbuild$/ }, () => ({ path: 'esbuild', external: true }));
  },
};

async function bundle(entry: string, plugins: esbuild.Plugin[] = []): Promise<string> {
  const result = await esbuild.build({ ...common, entryPoints: [join(ROOT, entry)], plugins });
  return result.outputFiles![0].text;
}

/** Builds the executable; throws BuildError on an unsupported platform or a failed step. */
export async function buildBinary(options: BuildOptions = {}): Promise<BuildResult> {
  const log = options.log ?? (() => undefined);
  const arch = options.arch ?? (process.arch as Arch);
  if (process.platform !== 'linux' || !ARCHES.includes(process.arch as Arch) || !ARCHES.includes(arch)) {
    throw new BuildError(
      `the single executable is built on and for Linux x64 or arm64 only (this is ${process.platform} ${process.arch}, target ${arch})`,
    );
  }
  const outDir = resolve(options.outDir ?? join(ROOT, 'dist'));
  const cross = arch !== process.arch;
  const work = join(outDir, cross ? `sea-${arch}` : 'sea');
  await mkdir(work, { recursive: true });

  let t = performance.now();
  const [mainJs, workerJs, mergeJs, searchJs, webAssets] = await Promise.all([
    bundle('src/main.ts', [xxhashForSea, esbuildOutOfBinary]),
    bundle('extractors/worker.ts'),
    bundle('engine/merge/merge-worker.ts', [xxhashForSea]),
    bundle('src/search/search-worker.ts', [xxhashForSea]),
    buildWebAssets(),
  ]);
  const files = {
    main: join(work, 'main.cjs'),
    worker: join(work, SEA_WORKER_ASSET),
    mergeWorker: join(work, SEA_MERGE_WORKER_ASSET),
    searchWorker: join(work, SEA_SEARCH_WORKER_ASSET),
    webAssets: join(work, WEB_ASSETS_SEA),
    config: join(work, 'sea-config.json'),
    blob: join(work, 'sea-prep.blob'),
  };
  await writeFile(files.main, mainJs);
  await writeFile(files.worker, workerJs);
  await writeFile(files.mergeWorker, mergeJs);
  await writeFile(files.searchWorker, searchJs);
  await writeFile(files.webAssets, JSON.stringify(webAssets));
  const bundleMs = performance.now() - t;
  log(`bundled: main ${(mainJs.length / 1e6).toFixed(1)} MB, worker ${(workerJs.length / 1e6).toFixed(1)} MB`);

  t = performance.now();
  const target = await targetParts(arch, join(outDir, 'cache'), log);
  const seaConfig = {
    main: files.main,
    output: files.blob,
    disableExperimentalSEAWarning: true,
    // V8 code cache is specific to the CPU it was made on: only for the machine's own.
    useCodeCache: target.native,
    assets: {
      [SEA_WORKER_ASSET]: files.worker,
      [SEA_MERGE_WORKER_ASSET]: files.mergeWorker,
      [SEA_SEARCH_WORKER_ASSET]: files.searchWorker,
      [WEB_ASSETS_SEA]: files.webAssets,
      [XXHASH_ASSET]: target.addon,
    },
  };
  await writeFile(files.config, JSON.stringify(seaConfig, null, 2));
  try {
    await promisify(execFile)(process.execPath, ['--experimental-sea-config', files.config], { cwd: work });
  } catch (err) {
    throw new BuildError(
      `node --experimental-sea-config failed: ${(err as { stderr?: string }).stderr || (err as Error).message}`,
    );
  }
  const blobMs = performance.now() - t;

  t = performance.now();
  const binary = join(outDir, cross ? `enterprise-search-linux-${arch}` : 'enterprise-search');
  await rm(binary, { force: true });
  await copyFile(target.node, binary);
  try {
    const postject = require.resolve('postject/dist/cli.js');
    const args = [postject, binary, 'NODE_SEA_BLOB', files.blob, '--sentinel-fuse', SEA_FUSE];
    const { stderr } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
    // LIEF complains about the many ELF notes of node's build; those lines are noise.
    for (const line of stderr.split('\n'))
      if (line && !/Can't find string offset for section name '\.note/.test(line)) log(line);
  } catch (err) {
    throw new BuildError(`postject failed: ${(err as { stderr?: string }).stderr || (err as Error).message}`);
  }
  await chmod(binary, 0o755);
  const injectMs = performance.now() - t;
  const { size } = await stat(binary);
  log(`wrote ${binary} (${(size / 1e6).toFixed(1)} MB)`);
  return {
    binary,
    bytes: size,
    timings: { bundle: Math.round(bundleMs), blob: Math.round(blobMs), inject: Math.round(injectMs) },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--out');
  const outDir = at >= 0 ? process.argv[at + 1] : undefined;
  const archAt = process.argv.indexOf('--arch');
  const arch = archAt >= 0 ? (process.argv[archAt + 1] as Arch) : undefined;
  buildBinary({ outDir, arch, log: (line) => console.log(line) }).then(
    (r) =>
      console.log(
        `done in ${r.timings.bundle + r.timings.blob + r.timings.inject} ms (bundle ${r.timings.bundle}, blob ${r.timings.blob}, inject ${r.timings.inject})`,
      ),
    (err) => {
      console.error(err instanceof BuildError ? `build:binary: ${err.message}` : err);
      process.exitCode = 1;
    },
  );
}
