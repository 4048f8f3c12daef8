/**
 * Breadcrumb paths (documents/convert.ts): `pathSegments` and `parentPath` give what the
 * regular expressions they replaced gave, on random paths of separators, spaces, line breaks
 * and letters; they now scan once instead of backtracking over long whitespace runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parentPath, pathSegments } from '../../../src/documents/convert.ts';

/** The former definitions, as the reference. */
const oldSegments = (path: string) =>
  path
    .split(/\s*(?:>|»|\/|\\|›)\s*/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
function oldParent(path: string): string {
  const m = /^(.*?)\s*(?:>|»|\/|\\|›)\s*[^>»/\\›]*$/.exec(path.trimEnd());
  return m ? m[1].trim() : '';
}

test('segments and parents equal the former regular expressions on random paths', () => {
  const alphabet = ['a', 'b', ' ', ' ', '\t', '\n', '\u2028', '\u00a0', '>', '»', '/', '\\', '›', '-', '.'];
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let withParent = 0;
  for (let n = 0; n < 20_000; n++) {
    let path = '';
    for (let k = Math.floor(next() * 14); k > 0; k--) path += alphabet[Math.floor(next() * alphabet.length)];
    assert.deepEqual(pathSegments(path), oldSegments(path), JSON.stringify(path));
    assert.equal(parentPath(path), oldParent(path), JSON.stringify(path));
    if (parentPath(path) !== '') withParent++;
  }
  assert.ok(withParent > 1000, `paths with a parent: ${withParent}`);
  assert.equal(parentPath('Drive > Reports > q3.pdf'), 'Drive > Reports');
  assert.deepEqual(pathSegments(' Drive » Reports /q3.pdf '), ['Drive', 'Reports', 'q3.pdf']);
});

test('a path with long whitespace runs keeps them inside its segments', () => {
  const path = `a${' '.repeat(20_000)}b > c${'\t'.repeat(20_000)}d`;
  assert.equal(parentPath(path), `a${' '.repeat(20_000)}b`);
  assert.deepEqual(pathSegments(path), [`a${' '.repeat(20_000)}b`, `c${'\t'.repeat(20_000)}d`]);
});
