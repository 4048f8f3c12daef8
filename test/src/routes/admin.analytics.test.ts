/**
 * GET /api/admin/analytics: the report of a period from what the search and chat pages recorded:
 * top and zero-result queries, click-through rate (result pages with a click / result pages),
 * mean clicked position, distinct searchers, the feedback list (a later rating of the same answer
 * replaces the earlier one), the period's bounds and validation, and administrators only.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { csrfOf, pageDataOf, sessionJson } from '../../support/analytics.ts';
import { HttpBrowser, webServer, type Person, type WebServer } from '../../support/web.ts';
import { pageClient, seedSearchFixture, type SearchFixture } from '../web/search.fixture.ts';

const HOUR = 3_600_000;
let now = Date.parse('2026-11-20T10:00:00.000Z');
let s: WebServer;
let f: SearchFixture;
let admin: Person;

async function search(b: HttpBrowser, query: string) {
  const page = await b.request(`/?${query}`);
  return { data: pageDataOf(page.text)?.analytics, csrf: csrfOf(page.text) };
}

async function click(b: HttpBrowser, shown: Awaited<ReturnType<typeof search>>, rank: number) {
  const body = { type: 'click', query_id: shown.data.query_id, result_id: shown.data.results[rank - 1], rank };
  const res = await sessionJson(b, 'POST', '/api/analytics/events', {
    body: { ...body, page: shown.data.page },
    csrf: shown.csrf,
  });
  assert.equal(res.status, 204, JSON.stringify(res.body));
}

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' }, now: () => now });
  f = await seedSearchFixture(s, now);
  admin = await s.person('root@example.com', { roles: ['administrator'] });
  const ada = await pageClient(s, f.ada, 'en');
  const eve = await pageClient(s, f.eve, 'en');
  // Yesterday: one search, outside a period that starts today.
  now -= 24 * HOUR;
  await search(ada, 'q=yesterday+only');
  now += 24 * HOUR;
  const travel1 = await search(ada, 'q=Travel');
  await click(ada, travel1, 2);
  await click(ada, travel1, 1); // the same result page clicked twice counts once
  await search(eve, 'q=travel');
  const minutes2 = await search(eve, 'q=minutes&page=2');
  await click(eve, minutes2, 4); // position 14
  await search(ada, 'q=nothing+here+xyzzy');
  await search(eve, 'q=nothing+here+xyzzy');
  const rate = async (b: HttpBrowser, csrf: string, over: Record<string, unknown>) =>
    assert.equal(
      (await sessionJson(b, 'POST', '/api/analytics/events', { body: { type: 'feedback', ...over }, csrf })).status,
      204,
    );
  await rate(ada, travel1.csrf, { id: 'fb_answer_one', rating: 'up', question: 'Q1', answer: 'A1' });
  now += 1000;
  await rate(ada, travel1.csrf, {
    id: 'fb_answer_one',
    rating: 'down',
    comment: 'Changed my mind',
    question: 'Q1',
    answer: 'A1',
  });
  now += 1000;
  await rate(eve, minutes2.csrf, { id: 'fb_answer_one', rating: 'up', question: 'Q2', answer: 'A2' });
});
after(() => s.close());

test('the report of a period: top and zero-result queries, click-through rate, mean position, feedback', async () => {
  const res = await s.call('GET', '/api/admin/analytics?from=2026-11-20&to=2026-11-20', MASTER);
  assert.equal(res.status, 200);
  const r = res.body;
  assert.deepEqual([r.from, r.to, r.mode], ['2026-11-20T00:00:00.000Z', '2026-11-20T23:59:59.999Z', 'on']);
  assert.deepEqual(r.totals, {
    queries: 5,
    zero_result_queries: 2,
    clicks: 3,
    clicked_queries: 2,
    click_through_rate: 0.4,
    mean_clicked_position: 5.67,
    searchers: 2,
    feedback_up: 1,
    feedback_down: 1,
  });
  const rows = (list: { query: string; count: number; clicked: number; zero: number }[]) =>
    list.map((q) => [q.query, q.count, q.clicked, q.zero]);
  assert.deepEqual(rows(r.top_queries), [
    ['nothing here xyzzy', 2, 0, 2],
    ['travel', 2, 1, 0],
    ['minutes', 1, 1, 0],
  ]);
  assert.deepEqual(rows(r.zero_result_queries), [['nothing here xyzzy', 2, 0, 2]]);
  assert.deepEqual(
    r.feedback.map((x: Record<string, unknown>) => [x.rating, x.comment, x.question, x.answer]),
    [
      ['up', '', 'Q2', 'A2'],
      ['down', 'Changed my mind', 'Q1', 'A1'],
    ],
  );
  assert.equal(r.feedback[0].at, new Date(now).toISOString());
  assert.equal(JSON.stringify(r).includes('acc_'), false, 'the report names no account');
});

test('the period: default the last 30 days, `to` as a day includes it, limit, and bad values (422)', async () => {
  const all = await s.call('GET', '/api/admin/analytics', MASTER);
  assert.equal(all.body.totals.queries, 6);
  assert.equal(all.body.to, new Date(now).toISOString());
  const yesterday = await s.call('GET', '/api/admin/analytics?from=2026-11-19&to=2026-11-19', MASTER);
  assert.deepEqual(
    yesterday.body.top_queries.map((q: { query: string }) => q.query),
    ['yesterday only'],
  );
  const limited = await s.call('GET', '/api/admin/analytics?limit=1', MASTER);
  assert.equal(limited.body.top_queries.length, 1);
  const bad: [string, string][] = [
    ['from=yesterday', 'from'],
    ['to=2026-02-30', 'to'],
    ['from=2026-11-21&to=2026-11-20', 'from'],
    ['from=2025-01-01&to=2026-11-20', 'from'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
  ];
  for (const [query, field] of bad) {
    const res = await s.call('GET', `/api/admin/analytics?${query}`, MASTER);
    assert.equal(res.status, 422, query);
    assert.deepEqual(res.body.detail[0].loc, ['query', field], query);
    assert.equal(res.body.detail[0].type, 'value_error');
  }
});

test('administrators only: the master key, an administrator key or session; others 401/403', async () => {
  assert.equal((await s.call('GET', '/api/admin/analytics', null)).status, 401);
  assert.equal((await s.call('GET', '/api/admin/analytics', f.ada.key)).status, 403);
  assert.equal((await s.call('GET', '/api/admin/analytics', s.key)).status, 403);
  assert.equal((await s.call('GET', '/api/admin/analytics', admin.key)).status, 200);
  const page = await pageClient(s, admin);
  assert.equal((await sessionJson(page, 'GET', '/api/admin/analytics')).status, 200);
  const ada = await pageClient(s, f.ada);
  const refused = await sessionJson(ada, 'GET', '/api/admin/analytics');
  assert.equal(refused.status, 403);
  assert.match(refused.body.detail, /Administrator access required/);
});
