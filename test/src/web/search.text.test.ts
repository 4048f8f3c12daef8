/**
 * The search page's text helpers (src/web/pages/search/text.ts, state.ts): highlight fragments
 * become text runs (never markup), only http(s) addresses become links, and the address state
 * maps to the API's parameters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { highlightMarkup } from '../../../src/search/markup.ts';
import { apiQuery, readState, stateHref } from '../../../src/web/pages/search/state.ts';
import { formatDay, highlightRuns, safeHref } from '../../../src/web/pages/search/text.ts';

test('highlight fragments become runs: <em> marks, entities decoded, other tags stay text', () => {
  assert.deepEqual(highlightRuns('a <em>b</em> &lt;script&gt; &amp;lt; &quot;x&#39; &#x3c;'), [
    { text: 'a ', mark: false },
    { text: 'b', mark: true },
    { text: ` <script> &lt; "x' <`, mark: false },
  ]);
  assert.deepEqual(highlightRuns('<b>bold</b> <em>&lt;img onerror=x&gt;</em>'), [
    { text: '<b>bold</b> ', mark: false },
    { text: '<img onerror=x>', mark: true },
  ]);
  assert.deepEqual(highlightRuns('&bogus; &#0; &#xD800;'), [{ text: '&bogus; &#0; &#xD800;', mark: false }]);
});

test("the API's own markup round-trips to its text and ranges", () => {
  const text = 'Tom & "Jerry" <3 travel, travel!';
  const runs = highlightRuns(
    highlightMarkup(text, [
      [25, 31],
      [14, 16],
    ]),
  );
  assert.equal(runs.map((r) => r.text).join(''), text);
  assert.deepEqual(
    runs.filter((r) => r.mark).map((r) => r.text),
    ['<3', 'travel'],
  );
});

test('only addresses the browser opens as http(s) become links', () => {
  for (const ok of ['https://wiki.example.com/a?b=c', 'http://x', '/docs/a', 'docs/a', '//cdn.example.com/x', '?q=1'])
    assert.equal(safeHref(ok), ok, ok);
  for (const bad of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'mailto:a@example.com',
    'file:///etc/passwd',
    '',
    '   ',
    'https://[bad',
  ])
    assert.equal(safeHref(bad), undefined, JSON.stringify(bad));
});

test('dates in the page language, UTC; no date for an empty or bad value', () => {
  assert.equal(formatDay('de', '2026-03-14T23:30:00Z'), '14. März 2026');
  assert.equal(formatDay('en', '2026-03-14T23:30:00Z'), '14 Mar 2026');
  assert.equal(formatDay('en', ''), undefined);
  assert.equal(formatDay('en', 'soon'), undefined);
});

test('the address state maps to the API parameters and back', () => {
  const s = readState(new URLSearchParams('q=a&q=travel+plans&ds=wiki&type=pdf&date=custom&from=2026-01-01&page=3'));
  assert.deepEqual(apiQuery(s, 'en'), {
    query: 'travel plans',
    count: '10',
    language: 'en',
    data_source: 'wiki',
    file_type: 'pdf',
    last_modified_date: '2026-01-01T00:00:00.000Z_9999-12-31T23:59:59.999Z',
    start_page: '2',
  });
  assert.equal(stateHref(s, { page: '4' }), '/?q=travel+plans&ds=wiki&type=pdf&date=custom&from=2026-01-01&page=4');
  assert.equal(stateHref(s, { date: 'week', page: '1' }), '/?q=travel+plans&ds=wiki&type=pdf&date=week');
  assert.equal(apiQuery(readState(new URLSearchParams('q=x&page=0')), 'de').start_page, 'not a page');
  assert.equal(
    apiQuery(readState(new URLSearchParams('q=x&date=week&from=2020-01-01')), 'de').last_modified_date,
    'week',
  );
});
