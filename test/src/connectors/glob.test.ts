/** Include and exclude globs: names at any depth, whole paths, `**`, classes, alternatives, folder pruning. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { globMatcher, globProblem } from '../../../src/connectors/glob.ts';

test('a pattern without a slash matches the file name at any depth', () => {
  const m = globMatcher(['*.pdf', '.DS_Store', 'report-??.txt']);
  assert.ok(m.matches('a.pdf'));
  assert.ok(m.matches('x/y/a.pdf'));
  assert.ok(!m.matches('x/a.pdf.txt'));
  assert.ok(m.matches('x/.DS_Store'));
  assert.ok(m.matches('report-07.txt'));
  assert.ok(!m.matches('report-7.txt'));
});

test('a pattern with a slash matches the whole relative path', () => {
  const m = globMatcher(['archive/**', 'docs/*.md', '/top.txt', 'a/**/b.txt']);
  assert.ok(m.matches('archive/2020/x.pdf'));
  assert.ok(!m.matches('old/archive/x.pdf'));
  assert.ok(m.matches('docs/readme.md'));
  assert.ok(!m.matches('docs/sub/readme.md'));
  assert.ok(m.matches('top.txt'));
  assert.ok(m.matches('a/b.txt'));
  assert.ok(m.matches('a/x/y/b.txt'));
});

test('classes and alternatives', () => {
  const m = globMatcher(['*.{doc,docx}', 'v[0-9].txt', 'x[!a].txt']);
  assert.ok(m.matches('p/q.docx'));
  assert.ok(m.matches('q.doc'));
  assert.ok(!m.matches('q.docm'));
  assert.ok(m.matches('v3.txt'));
  assert.ok(!m.matches('va.txt'));
  assert.ok(m.matches('xb.txt'));
  assert.ok(!m.matches('xa.txt'));
});

test('folders covered whole are pruned', () => {
  const m = globMatcher(['node_modules', 'archive/**', '*.tmp']);
  assert.ok(m.coversDirectory('node_modules'));
  assert.ok(m.coversDirectory('a/node_modules'));
  assert.ok(m.coversDirectory('archive'));
  assert.ok(!m.coversDirectory('archive2'));
  assert.ok(!m.coversDirectory('docs'));
});

test('bad patterns are refused with a reason', () => {
  assert.match(globProblem('')!, /empty/);
  assert.match(globProblem('{a,b')!, /braces/);
  assert.match(globProblem('*'.repeat(20))!, /wildcards/);
  assert.equal(globProblem('**/*.pdf'), undefined);
});
