/**
 * Build tool (not loaded by the server): the parts of the single executable
 * that depend on the target CPU, Linux x64 or arm64. For the machine's own CPU
 * they are the running node binary and the installed xxhash addon. For the
 * other one both come from the npm registry, the only network the build may
 * use: the official node binary of the same version, as republished in the
 * `node-linux-<arch>` package (the platform packages of npm's `node`
 * package), and `@node-rs/xxhash-linux-<arch>-gnu` of the installed xxhash
 * version. `npm pack` checks them against the registry's integrity digests;
 * they are kept in OUT/cache/ for the next build.
 */
import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const ARCHES = ['x64', 'arm64'] as const;
export type Arch = (typeof ARCHES)[number];

export interface TargetParts {
  arch: Arch;
  /** Path of the node binary the blob is injected into. */
  node: string;
  /** Path of the xxhash native addon for the target. */
  addon: string;
  /** Whether the target is the machine's own CPU (then the blob may carry V8 code cache). */
  native: boolean;
}

const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** Downloads and unpacks `spec` (name@version) from the registry into `dir` once; returns the package folder. */
async function unpacked(spec: string, dir: string, log: (line: string) => void): Promise<string> {
  const folder = join(dir, spec.replace(/[/@]/g, '_'));
  const done = await stat(join(folder, 'package', 'package.json')).catch(() => undefined);
  if (done) return join(folder, 'package');
  await mkdir(folder, { recursive: true });
  log(`fetching ${spec} from the npm registry`);
  const { stdout } = await run('npm', ['pack', spec, '--pack-destination', folder, '--silent'], {
    maxBuffer: 1024 * 1024,
  });
  const tarball = stdout.trim().split('\n').at(-1)!;
  await run('tar', ['-xzf', join(folder, tarball), '-C', folder]);
  return join(folder, 'package');
}

/** The node binary and the addon for `arch` (see the header); `cacheDir` keeps downloads. */
export async function targetParts(arch: Arch, cacheDir: string, log: (line: string) => void): Promise<TargetParts> {
  const addonPackage = `@node-rs/xxhash-linux-${arch}-gnu`;
  if (arch === process.arch) {
    return { arch, node: process.execPath, addon: require.resolve(addonPackage), native: true };
  }
  const xxhash = require('@node-rs/xxhash/package.json') as { optionalDependencies: Record<string, string> };
  const addonVersion = xxhash.optionalDependencies[addonPackage];
  const nodeDir = await unpacked(`node-linux-${arch}@${process.versions.node}`, cacheDir, log);
  const addonDir = await unpacked(`${addonPackage}@${addonVersion}`, cacheDir, log);
  const addonMain = (require(join(addonDir, 'package.json')) as { main: string }).main;
  return { arch, node: join(nodeDir, 'bin', 'node'), addon: join(addonDir, addonMain), native: false };
}
