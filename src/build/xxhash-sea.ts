/**
 * Stand-in for `@node-rs/xxhash` inside the single executable. The bundler (src/build/binary.ts)
 * resolves every `import ... from '@node-rs/xxhash'` to this module, so product code keeps
 * importing the package as usual and runs unchanged from source.
 *
 * Contract: the executable carries the package's Linux x64 native addon as the SEA asset
 * `xxhash.node`. At load it is written into a fresh private directory under os.tmpdir() (mode
 * 0700, so no other user can swap the file), loaded with process.dlopen, and the directory is
 * removed again at once (the mapped library stays valid after unlink). The temporary directory
 * must allow executable mappings (set TMPDIR to another place if /tmp is mounted noexec).
 * The exports are those of the package: Xxh32, Xxh64, xxh32, xxh64, xxh3.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import type * as XxHash from '@node-rs/xxhash';

/** Asset name under which src/build/binary.ts stores the addon (its XXHASH_ASSET). */
export const XXHASH_ASSET = 'xxhash.node';

function loadAddon(): typeof XxHash {
  if (!isSea()) {
    throw new Error(
      'src/build/xxhash-sea.ts only works inside the single executable; from source, import @node-rs/xxhash',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'enterprise-search-'));
  try {
    const file = join(dir, XXHASH_ASSET);
    writeFileSync(file, new Uint8Array(getAsset(XXHASH_ASSET)), { mode: 0o500 });
    const mod = { exports: {} as typeof XxHash };
    try {
      process.dlopen(mod, file);
    } catch (err) {
      throw new Error(
        `cannot load the embedded xxhash addon from ${dir} (is TMPDIR mounted noexec?): ${(err as Error).message}`,
      );
    }
    return mod.exports;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const addon = loadAddon();

export const Xxh32 = addon.Xxh32;
export const Xxh64 = addon.Xxh64;
export const xxh32 = addon.xxh32;
export const xxh64 = addon.xxh64;
export const xxh3 = addon.xxh3;
