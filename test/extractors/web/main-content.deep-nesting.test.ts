/**
 * Main-content extraction runs for every crawled page (web search, chat webSearch tool; in an
 * extraction worker, which a slow pass holds up to its 10 s limit), so its work must grow
 * linearly with the page: a hostile page of deeply nested elements (under 4 MB, within the
 * default CRAWLER_MAX_BYTES) must not keep the thread busy for minutes. The extraction runs in a child process that is killed when it
 * has not answered long after a linear pass would have (a hang guard, not a measurement).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HANG_GUARD_TEST_MS, runGuarded, type GuardedRun } from '../helpers/hang-guard.ts';

const MODULE = new URL('../../../extractors/web/main-content.ts', import.meta.url).href;

function extractInChild(depth: number, leaves: number): Promise<GuardedRun> {
  const script = `
    const { extractMainContent } = await import(${JSON.stringify(MODULE)});
    const html = '<html><body>' + '<div>'.repeat(${depth}) + '<span>leaf text</span>'.repeat(${leaves}) + '</body></html>';
    const r = extractMainContent(html, 6000);
    process.stdout.write(String(r.text.length));
  `;
  return runGuarded(script);
}

test(
  'a page of 3,000 nested elements holding 190,000 leaves is extracted without a quadratic walk',
  { timeout: HANG_GUARD_TEST_MS },
  async () => {
    const r = await extractInChild(3000, 190_000);
    assert.equal(r.killed, false, 'the extraction did not finish: the element walk is quadratic in the nesting depth');
    assert.equal(r.code, 0, r.err);
    assert.ok(Number(r.out) > 0, 'the leaves text is extracted');
  },
);
