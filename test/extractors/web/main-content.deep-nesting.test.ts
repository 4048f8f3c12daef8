/**
 * Main-content extraction runs for every crawled page (web search, chat webSearch tool; in an
 * extraction worker, which a slow pass holds up to its 10 s limit), so its work must grow
 * linearly with the page: a hostile page of deeply nested elements (under 4 MB, within the
 * default CRAWLER_MAX_BYTES) must not keep the thread busy for minutes. The extraction runs in a child process that is killed when it
 * has not answered long after a linear pass would have (a hang guard, not a measurement).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

const MODULE = new URL('../../../extractors/web/main-content.ts', import.meta.url).href;
/** Far above a linear pass on this input (about a second); far below the quadratic walk (about a minute). */
const HANG_GUARD_MS = 15_000;

function extractInChild(depth: number, leaves: number): Promise<{ code: number | null; killed: boolean; out: string; err: string }> {
  const script = `
    const { extractMainContent } = await import(${JSON.stringify(MODULE)});
    const html = '<html><body>' + '<div>'.repeat(${depth}) + '<span>leaf text</span>'.repeat(${leaves}) + '</body></html>';
    const r = extractMainContent(html, 6000);
    process.stdout.write(String(r.text.length));
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

test('a page of 3,000 nested elements holding 190,000 leaves is extracted without a quadratic walk', { timeout: HANG_GUARD_MS + 15_000 }, async () => {
  const r = await extractInChild(3000, 190_000);
  assert.equal(r.killed, false, 'the extraction did not finish: the element walk is quadratic in the nesting depth');
  assert.equal(r.code, 0, r.err);
  assert.ok(Number(r.out) > 0, 'the leaves text is extracted');
});
