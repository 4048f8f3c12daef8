/**
 * The HTML tree builder runs for every crawled page (in an extraction worker, where a slow parse
 * holds the worker up to its 10 s limit and costs the page its content), so close tags must
 * cost amortised constant time: a hostile page of many open elements followed by many close
 * tags that match none of them (360 KB, well within CRAWLER_MAX_BYTES) must not keep the
 * thread busy for a minute. The parse runs in a child process that is killed when it has not
 * answered long after a linear pass would have (a hang guard, not a measurement).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HANG_GUARD_TEST_MS, parseHtmlGuarded } from '../helpers/hang-guard.ts';
import { MAX_HTML_DEPTH } from '../../../extractors/web/html-tree.ts';

test(
  '40,000 close tags matching no open element after 40,000 open elements are ignored without rescanning the open elements',
  { timeout: HANG_GUARD_TEST_MS },
  async () => {
    const r = await parseHtmlGuarded(`'<div>'.repeat(40000) + '</p>'.repeat(40000)`);
    assert.equal(r.killed, false, 'the parse did not finish: every unmatched close tag scans all open elements');
    assert.equal(r.code, 0, r.err);
    // The first-child chain: 40,000 divs nest as deep as the tree builder allows.
    assert.equal(Number(r.out), MAX_HTML_DEPTH + 1, 'the unmatched close tags closed nothing');
  },
);

test('a close tag still closes its element and every element opened after it', async () => {
  const { parseHtml } = await import('../../../extractors/web/html-tree.ts');
  const { root } = parseHtml('<div><p><b>x</p>after</div><i>y</i></b>z');
  const div = root.children[0];
  assert.ok(typeof div !== 'string' && div.tag === 'div');
  assert.deepEqual(
    div.children.map((c) => (typeof c === 'string' ? c : c.tag)),
    ['p', 'after'],
  );
  assert.deepEqual(
    root.children.map((c) => (typeof c === 'string' ? c : c.tag)),
    ['div', 'i', 'z'],
  );
});
