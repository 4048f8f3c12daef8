/**
 * Search analytics recorded by the search page (ANALYTICS=on), read back from the day files on
 * disk: a result page is recorded from what the page shows (normalized query, language, filters,
 * page, result count, zero-result flag, account, time), zero-result searches are flagged, bad
 * parameters record nothing, and a click names the result shown at its rank and page.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { csrfOf, pageDataOf, recordsOnDisk, sessionJson } from '../../support/analytics.ts';
import { webServer, type Person, type WebServer } from '../../support/web.ts';
import { pageClient, resultLinks, seedSearchFixture, type SearchFixture } from './search.fixture.ts';

const NOW = Date.parse('2026-11-20T10:00:00.000Z');
let s: WebServer;
let f: SearchFixture;

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' }, now: () => NOW });
  f = await seedSearchFixture(s, NOW);
});
after(() => s.close());

async function accountId(who: Person): Promise<string> {
  const list = await s.call('GET', '/api/admin/accounts', MASTER);
  return list.body.accounts.find((a: { email: string }) => a.email === who.email).id;
}

async function search(who: Person, query: string) {
  const b = await pageClient(s, who, 'en');
  const page = await b.request(`/?${query}`);
  return { b, page, data: pageDataOf(page.text)?.analytics, csrf: csrfOf(page.text) };
}

const queries = async () => (await recordsOnDisk(s.dir, s.services.analytics)).filter((r) => r.type === 'query');

test('a result page is recorded as shown: normalized query, language, filters, page, count, account, time', async () => {
  const { page, data } = await search(f.ada, `q=${encodeURIComponent('  Travel \t POLICY ')}&type=wiki&date=year`);
  assert.equal(page.status, 200);
  assert.match(data.query_id, /^q_[A-Za-z0-9_-]{22}$/);
  assert.equal(data.page, 1);
  assert.equal(data.results.length, resultLinks(page.text).length);
  assert.ok(data.results.length > 0);
  const record = (await queries()).find((r) => r.type === 'query' && r.id === data.query_id);
  assert.deepEqual(record, {
    at: new Date(NOW).toISOString(),
    type: 'query',
    id: data.query_id,
    account: await accountId(f.ada),
    query: 'travel policy',
    language: 'en',
    filters: { file_type: 'wiki', last_modified_date: 'year' },
    page: 1,
    results: data.results.length,
    zero: false,
  });
});

test('a search that finds nothing is a zero-result query; a page past the last result is not', async () => {
  const none = await search(f.ada, 'q=xylophone+quartzite');
  const past = await search(f.ada, 'q=travel&page=9');
  const records = await queries();
  const zero = records.find((r) => r.type === 'query' && r.id === none.data.query_id);
  const beyond = records.find((r) => r.type === 'query' && r.id === past.data.query_id);
  assert.deepEqual([zero?.type === 'query' && [zero.results, zero.zero, zero.page]], [[0, true, 1]]);
  assert.deepEqual([beyond?.type === 'query' && [beyond.results, beyond.zero, beyond.page]], [[0, false, 9]]);
});

test('the start page and a search with a bad parameter record nothing', async () => {
  const before = (await queries()).length;
  const start = await search(f.ada, '');
  const bad = await search(f.ada, 'q=travel&type=spreadsheet');
  assert.equal(bad.page.status, 422);
  assert.equal(start.data, undefined);
  assert.equal(bad.data, undefined);
  assert.equal((await queries()).length, before);
});

test('a click is recorded with the result shown at its rank and page, and its position over all pages', async () => {
  const { b, data, csrf } = await search(f.ada, 'q=platform+minutes&page=2');
  assert.equal(data.page, 2);
  const event = { type: 'click', query_id: data.query_id, result_id: data.results[2], rank: 3, page: 2 };
  const res = await sessionJson(b, 'POST', '/api/analytics/events', { body: event, csrf });
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const clicks = (await recordsOnDisk(s.dir, s.services.analytics)).filter((r) => r.type === 'click');
  assert.deepEqual(clicks.at(-1), {
    at: new Date(NOW).toISOString(),
    account: await accountId(f.ada),
    type: 'click',
    query_id: data.query_id,
    result_id: data.results[2],
    rank: 3,
    page: 2,
    position: 13,
  });
});

test('a click must name a result page shown to the same account, at that page and rank', async () => {
  const ada = await search(f.ada, 'q=travel');
  const eve = await search(f.eve, 'q=travel');
  const click = { type: 'click', query_id: ada.data.query_id, result_id: ada.data.results[0], rank: 1, page: 1 };
  const before = (await recordsOnDisk(s.dir, s.services.analytics)).length;
  const cases: [string, Record<string, unknown>, typeof ada, string][] = [
    ['another result at that rank', { result_id: ada.data.results[1] }, ada, 'result_id'],
    ['another page', { page: 2 }, ada, 'page'],
    ['an unknown query id', { query_id: `q_${'A'.repeat(22)}` }, ada, 'query_id'],
    ["another account's query", {}, eve, 'query_id'],
  ];
  for (const [what, change, who, field] of cases) {
    const res = await sessionJson(who.b, 'POST', '/api/analytics/events', {
      body: { ...click, ...change },
      csrf: who.csrf,
    });
    assert.equal(res.status, 422, what);
    assert.deepEqual(
      res.body.detail.map((d: { loc: unknown[] }) => d.loc),
      [['body', field]],
      what,
    );
  }
  const rank = await sessionJson(ada.b, 'POST', '/api/analytics/events', {
    body: { ...click, rank: 11 },
    csrf: ada.csrf,
  });
  assert.equal(rank.status, 422);
  assert.deepEqual(rank.body.detail[0].loc, ['body', 'rank']);
  assert.equal((await recordsOnDisk(s.dir, s.services.analytics)).length, before, 'nothing recorded');
});
