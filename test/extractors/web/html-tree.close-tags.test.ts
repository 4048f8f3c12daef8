/**
 * The HTML tree builder runs for every crawled page (in an extraction worker, where a slow parse
 * holds the worker up to its 10 s limit and costs the page its content), so close tags must
 * cost amortised constant time: a hostile page of many open elements followed by many close
 * tags that match none of them (360 KB, well within CRAWLER_MAX_BYTES) must not keep the
 * thread busy for a minute. The parse runs in a child process that is killed when it has not
 * answered long after a linear pass would have (a hang guard, not a measurement).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

const MODULE = new URL('../../../extractors/web/html-tree.ts', import.meta.url).href;
/** Far above a linear pass on this input (milliseconds); far below the quadratic scan (about a minute). */
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

test('40,000 close tags matching no open element after 40,000 open elements are ignored without rescanning the open elements', { timeout: HANG_GUARD_MS + 15_000 }, async () => {
  const r = await parseInChild(`'<div>'.repeat(40000) + '</p>'.repeat(40000)`);
  assert.equal(r.killed, false, 'the parse did not finish: every unmatched close tag scans all open elements');
  assert.equal(r.code, 0, r.err);
  assert.equal(Number(r.out), 40000, 'the unmatched close tags closed nothing');
});

test('a close tag still closes its element and every element opened after it', async () => {
  const { parseHtml } = await import('../../../extractors/web/html-tree.ts');
  const { root } = parseHtml('<div><p><b>x</p>after</div><i>y</i></b>z');
  const div = root.children[0];
  assert.ok(typeof div !== 'string' && div.tag === 'div');
  assert.deepEqual(div.children.map((c) => (typeof c === 'string' ? c : c.tag)), ['p', 'after']);
  assert.deepEqual(root.children.map((c) => (typeof c === 'string' ? c : c.tag)), ['div', 'i', 'z']);
});
