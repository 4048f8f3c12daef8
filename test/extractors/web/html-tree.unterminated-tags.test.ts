/**
 * The HTML tree builder runs for every crawled page (in an extraction worker, where a slow parse
 * holds the worker up to its 10 s limit and costs the page its content), so a start tag that
 * is never closed by `>` must not make every later `<` rescan the rest of the page: 80,000
 * unterminated `<a ` (240 KB, well within CRAWLER_MAX_BYTES) must not keep the thread busy
 * for a minute. The parse runs in a child process that is killed when it has not answered
 * long after a linear pass would have (a hang guard, not a measurement).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

const MODULE = new URL('../../../extractors/web/html-tree.ts', import.meta.url).href;
/** Far above a linear pass on this input (milliseconds); far below the quadratic rescans (about a minute). */
const HANG_GUARD_MS = 15_000;

function parseInChild(html: string): Promise<{ code: number | null; killed: boolean; out: string; err: string }> {
  const script = `
    const { parseHtml } = await import(${JSON.stringify(MODULE)});
    const html = ${html};
    const { root } = parseHtml(html);
    let depth = 0;
    for (let el = root; el.children.length > 0 && typeof el.children[0] !== 'string'; el = el.children[0]) depth++;
    process.stdout.write(String(depth));
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, HANG_GUARD_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, out, err });
    });
  });
}

test('80,000 unterminated start tags are parsed without rescanning the rest of the page for each', { timeout: HANG_GUARD_MS + 15_000 }, async () => {
  const r = await parseInChild(`'<a '.repeat(80000)`);
  assert.equal(r.killed, false, 'the parse did not finish: each unterminated tag rescans to the end of the page');
  assert.equal(r.code, 0, r.err);
});

test('an unclosed attribute quote does not rescan the page for each later tag', { timeout: HANG_GUARD_MS + 15_000 }, async () => {
  const r = await parseInChild(`'<a x'.repeat(80000) + '"'`);
  assert.equal(r.killed, false, 'the parse did not finish: each tag rescans to the unclosed quote');
  assert.equal(r.code, 0, r.err);
});
