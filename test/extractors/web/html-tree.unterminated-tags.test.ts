/**
 * The HTML tree builder runs for every crawled page (in an extraction worker, where a slow parse
 * holds the worker up to its 10 s limit and costs the page its content), so a start tag that
 * is never closed by `>` must not make every later `<` rescan the rest of the page: 80,000
 * unterminated `<a ` (240 KB, well within CRAWLER_MAX_BYTES) must not keep the thread busy
 * for a minute. The parse runs in a child process that is killed when it has not answered
 * long after a linear pass would have (a hang guard, not a measurement).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HANG_GUARD_TEST_MS, parseHtmlGuarded } from '../helpers/hang-guard.ts';

test(
  '80,000 unterminated start tags are parsed without rescanning the rest of the page for each',
  { timeout: HANG_GUARD_TEST_MS },
  async () => {
    const r = await parseHtmlGuarded(`'<a '.repeat(80000)`);
    assert.equal(r.killed, false, 'the parse did not finish: each unterminated tag rescans to the end of the page');
    assert.equal(r.code, 0, r.err);
  },
);

test(
  'an unclosed attribute quote does not rescan the page for each later tag',
  { timeout: HANG_GUARD_TEST_MS },
  async () => {
    const r = await parseHtmlGuarded(`'<a x'.repeat(80000) + '"'`);
    assert.equal(r.killed, false, 'the parse did not finish: each tag rescans to the unclosed quote');
    assert.equal(r.code, 0, r.err);
  },
);
