/** Total size in bytes of the regular files under a folder (recursive). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(p);
    else if (e.isFile()) total += statSync(p).size;
  }
  return total;
}
