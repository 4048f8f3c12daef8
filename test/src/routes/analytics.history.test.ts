/**
 * The right to erasure: DELETE /api/analytics/history and the search page's button remove every
 * record naming the person from the day files on disk (read back byte by byte), across days,
 * and leave everyone else's; recording goes on afterwards; the CSRF rules hold for both.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { bytesOnDisk, csrfOf, pageDataOf, recordsOnDisk, sessionJson } from '../../support/analytics.ts';
import { HttpBrowser, webServer, type Person, type WebServer } from '../../support/web.ts';
import { pageClient, seedSearchFixture, type SearchFixture } from '../web/search.fixture.ts';

const HOUR = 3_600_000;
let now = Date.parse('2026-11-20T23:00:00.000Z');
let s: WebServer;
let f: SearchFixture;

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' }, now: () => now });
  f = await seedSearchFixture(s, now);
});
after(() => s.close());

const accountId = async (who: Person): Promise<string> =>
  (await s.call('GET', '/api/admin/accounts', MASTER)).body.accounts.find(
    (a: { email: string }) => a.email === who.email,
  ).id;

/** A search with a query text of its own, a click on its first result and a rating; answers the client. */
async function activity(b: HttpBrowser, words: string) {
  const page = await b.request(`/?q=${encodeURIComponent(`travel ${words}`)}`);
  const data = pageDataOf(page.text).analytics;
  const csrf = csrfOf(page.text);
  const click = { type: 'click', query_id: data.query_id, result_id: data.results[0], rank: 1, page: 1 };
  assert.equal((await sessionJson(b, 'POST', '/api/analytics/events', { body: click, csrf })).status, 204);
  const rating = { type: 'feedback', id: `fb_${words}`, rating: 'up', comment: `comment ${words}` };
  assert.equal((await sessionJson(b, 'POST', '/api/analytics/events', { body: rating, csrf })).status, 204);
  return csrf;
}

test("DELETE /api/analytics/history removes the person's records from every day file and keeps the others'", async () => {
  const ada = await pageClient(s, f.ada);
  const eve = await pageClient(s, f.eve);
  await activity(ada, 'adaonedayone');
  await activity(eve, 'eveonedayone');
  now += 2 * HOUR; // the next UTC day
  await activity(eve, 'evedaytwo');
  const csrf = await activity(ada, 'adadaytwo');
  const [adaId, eveId] = [await accountId(f.ada), await accountId(f.eve)];
  const before = await recordsOnDisk(s.dir, s.services.analytics);
  assert.equal(before.filter((r) => r.account === adaId).length, 6);
  assert.deepEqual([...new Set(before.map((r) => r.at.slice(0, 10)))], ['2026-11-20', '2026-11-21']);
  const eves = before.filter((r) => r.account === eveId);

  const refused = await sessionJson(ada, 'DELETE', '/api/analytics/history', { csrf: null });
  assert.equal(refused.status, 403);
  const res = await sessionJson(ada, 'DELETE', '/api/analytics/history', { csrf });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { deleted: 6 });

  const after = await recordsOnDisk(s.dir, s.services.analytics);
  assert.equal(after.filter((r) => r.account === adaId).length, 0);
  assert.deepEqual(
    after.filter((r) => r.account === eveId),
    eves,
  );
  const bytes = await bytesOnDisk(s.dir);
  for (const gone of [adaId, 'adaonedayone', 'adadaytwo']) assert.doesNotMatch(bytes, new RegExp(gone));
  assert.match(bytes, /eveonedayone/);
  assert.doesNotMatch(bytes, /\.tmp/);

  await activity(ada, 'adaafter');
  const again = await recordsOnDisk(s.dir, s.services.analytics);
  assert.equal(again.filter((r) => r.account === adaId).length, 3, 'recording goes on in the rewritten file');
  const report = await s.call('GET', '/api/admin/analytics?from=2026-11-01', MASTER);
  assert.deepEqual(
    report.body.top_queries.map((q: { query: string }) => q.query).filter((q: string) => q.includes('ada')),
    ['travel adaafter'],
  );
});

test('a personal key deletes its account history too; a service-account key cannot', async () => {
  const eve = await pageClient(s, f.eve);
  await activity(eve, 'evewithkey');
  assert.equal((await s.call('DELETE', '/api/analytics/history', s.key)).status, 403);
  const res = await s.call('DELETE', '/api/analytics/history', f.eve.key);
  assert.equal(res.status, 200);
  assert.ok(res.body.deleted >= 3);
  assert.doesNotMatch(await bytesOnDisk(s.dir, s.services.analytics), /evewithkey/);
});

test("the search page's button deletes the history after the CSRF check and says how many records went", async () => {
  const ada = await pageClient(s, f.ada, 'en');
  await activity(ada, 'adabutton');
  const adaId = await accountId(f.ada);
  const mine = (await recordsOnDisk(s.dir, s.services.analytics)).filter((r) => r.account === adaId).length;
  assert.ok(mine >= 3);
  const page = await ada.request('/');
  assert.match(page.text, /Your search history/);
  assert.match(page.text, /recorded with your account/);
  const forged = await ada.request('/settings/search-history', { form: { _csrf: 'forged' } });
  assert.equal(forged.status, 403);
  assert.match(await bytesOnDisk(s.dir, s.services.analytics), /adabutton/);
  const deleted = await ada.request('/settings/search-history', { form: { _csrf: HttpBrowser.formToken(page.text) } });
  assert.equal(deleted.status, 303);
  assert.equal(deleted.headers.get('location'), `/?history_deleted=${mine}`);
  const shown = await ada.request(`/?history_deleted=${mine}`);
  assert.match(shown.text, /<details class="search-history" open="">/);
  assert.match(shown.text, new RegExp(`role="status">Your search history was deleted \\(${mine} records\\)\\.`));
  assert.doesNotMatch(await bytesOnDisk(s.dir, s.services.analytics), /adabutton/);
  const signedOut = await new HttpBrowser(s.base).request('/settings/search-history', { form: { _csrf: 'x' } });
  assert.equal(signedOut.status, 303);
  assert.match(signedOut.headers.get('location') ?? '', /^\/signin/);
});
