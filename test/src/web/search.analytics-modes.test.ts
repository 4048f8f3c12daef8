/**
 * ANALYTICS=off records nothing (no file, no page data, events refused, no feedback buttons), and
 * ANALYTICS=anonymous records nothing personal: no account id, email, name or session id, only a
 * visitor id that differs between sessions; such records name nobody, so a deletion keeps them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MASTER_KEY as MASTER } from '../../support/app.ts';
import { bytesOnDisk, csrfOf, pageDataOf, recordsOnDisk, sessionJson } from '../../support/analytics.ts';
import { webServer, type WebServer } from '../../support/web.ts';
import { pageClient, seedSearchFixture, type SearchFixture } from './search.fixture.ts';

const NOW = Date.parse('2026-11-20T10:00:00.000Z');
const rating = { type: 'feedback', id: 'fb_modes_0001', rating: 'up', comment: 'fine' };

describe('ANALYTICS=off', () => {
  let s: WebServer;
  let f: SearchFixture;
  before(async () => {
    s = await webServer({ env: { ANALYTICS: 'off' }, now: () => NOW });
    f = await seedSearchFixture(s, NOW);
  });
  after(() => s.close());

  test('nothing is recorded, the page hands no query id, events are refused and answers offer no rating', async () => {
    const b = await pageClient(s, f.ada, 'en');
    const page = await b.request('/?q=travel');
    assert.equal(page.status, 200);
    assert.equal(pageDataOf(page.text), undefined);
    assert.match(page.text, /Searches are not recorded\./);
    const event = await sessionJson(b, 'POST', '/api/analytics/events', { body: rating, csrf: csrfOf(page.text) });
    assert.equal(event.status, 404);
    assert.match(event.body.detail, /turned off/);
    const chat = await b.request('/chat');
    assert.equal(pageDataOf(chat.text).feedback, false);
    assert.deepEqual(await recordsOnDisk(s.dir, s.services.analytics), []);
    assert.equal(await bytesOnDisk(s.dir), '');
    const history = await sessionJson(b, 'DELETE', '/api/analytics/history', { csrf: csrfOf(page.text) });
    assert.deepEqual([history.status, history.body], [200, { deleted: 0 }]);
  });
});

describe('ANALYTICS=anonymous', () => {
  let s: WebServer;
  let f: SearchFixture;
  before(async () => {
    s = await webServer({ env: { ANALYTICS: 'anonymous' }, now: () => NOW });
    f = await seedSearchFixture(s, NOW);
  });
  after(() => s.close());

  test('records name a visitor per session, never the account, email, name or session', async () => {
    const first = await pageClient(s, f.ada, 'en');
    const second = await pageClient(s, f.ada, 'en');
    const pages = [
      await first.request('/?q=travel'),
      await first.request('/?q=trains'),
      await second.request('/?q=travel'),
    ];
    const data = pageDataOf(pages[0].text).analytics;
    const click = { type: 'click', query_id: data.query_id, result_id: data.results[0], rank: 1, page: 1 };
    const csrf = csrfOf(pages[0].text);
    assert.equal((await sessionJson(first, 'POST', '/api/analytics/events', { body: click, csrf })).status, 204);
    assert.equal((await sessionJson(first, 'POST', '/api/analytics/events', { body: rating, csrf })).status, 204);
    assert.equal(pageDataOf((await first.request('/chat')).text).feedback, true);

    const records = await recordsOnDisk(s.dir, s.services.analytics);
    assert.equal(records.length, 5);
    for (const r of records) {
      assert.equal(r.account, undefined);
      assert.match(r.visitor ?? '', /^[A-Za-z0-9_-]{22}$/);
    }
    const visitors = records.map((r) => r.visitor);
    assert.deepEqual(
      [
        visitors[0] === visitors[1],
        visitors[0] === visitors[3],
        visitors[0] === visitors[4],
        visitors[0] === visitors[2],
      ],
      [true, true, true, false],
      'one id per session',
    );
    const account = (await s.call('GET', '/api/admin/accounts', MASTER)).body.accounts.find(
      (a: { email: string }) => a.email === f.ada.email,
    );
    const bytes = await bytesOnDisk(s.dir);
    for (const personal of [account.id, f.ada.email, 'Ada Berg', first.cookies.get('es_session')!]) {
      assert.ok(!bytes.includes(personal), `no ${personal.slice(0, 6)}… on disk`);
    }
    const report = await s.call('GET', '/api/admin/analytics', MASTER);
    assert.equal(report.body.mode, 'anonymous');
    assert.equal(report.body.totals.searchers, 2, 'two sessions');
  });

  test('anonymous records name nobody: deleting a history keeps them', async () => {
    const b = await pageClient(s, f.eve, 'en');
    const page = await b.request('/?q=hamburg');
    assert.match(page.text, /recorded without your name/);
    const before = await recordsOnDisk(s.dir, s.services.analytics);
    const res = await sessionJson(b, 'DELETE', '/api/analytics/history', { csrf: csrfOf(page.text) });
    assert.deepEqual(res.body, { deleted: 0 });
    assert.deepEqual(await recordsOnDisk(s.dir, s.services.analytics), before);
  });
});
