/**
 * Where the benchmark reads its corpora from: `../shared/corpora` relative to
 * the repository root (override with CORPORA_DIR). Data is read at run time,
 * never copied into the repository.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const CORPORA_DIR: string =
  process.env.CORPORA_DIR ?? fileURLToPath(new URL('../../../shared/corpora/', import.meta.url));

/** Absolute path of a file inside the corpora folder. */
export function corpusPath(...parts: string[]): string {
  return join(CORPORA_DIR, ...parts);
}
