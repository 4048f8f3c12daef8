/**
 * The result window (MAX_RESULT_WINDOW hits): a page that straddles its end asks the engine for
 * the hits still inside it instead of nothing; a page starting at or beyond its end is empty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_RESULT_WINDOW, planSearch } from '../../../src/search/service.ts';
import { searchHarness } from '../../support/search.ts';

test('a page straddling the end of the result window is cut there; a page after it is empty', async () => {
  const h = await searchHarness();
  try {
    assert.equal((await h.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' })).status, 200);
    await h.register('wiki', 'ann@x.org');
    const deps = { state: h.services.state, index: h.services.documents!.index, now: () => Date.now() };
    const plan = (count: number, startPage: number) =>
      planSearch(deps, 'ann@x.org', { query: 'report', count, startPage });
    const straddling = plan(30, 333);
    assert.ok(straddling !== null, 'offset 9,990 lies inside the window');
    assert.equal(straddling.offset, 333 * 30);
    assert.equal(straddling.count, MAX_RESULT_WINDOW - 333 * 30, 'the last 10 hits of the window');
    assert.equal(plan(30, 334), null, 'offset 10,020: beyond the window');
    assert.equal(plan(100, 99)?.count, 100, 'the last full page of the window');
    assert.equal(plan(100, 100), null);
  } finally {
    await h.close();
  }
});
