/**
 * Deleting an account erases what the service kept for it: its saved
 * conversations (the file is gone from the disk) and its search-analytics
 * records; another person's conversations and records stay; the old key
 * gets 401; a caller that may not manage the account changes nothing.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { conversationsDir } from '../../src/conversations/store.ts';
import { MASTER_KEY as MASTER } from '../support/app.ts';
import { bytesOnDisk, csrfOf, pageDataOf, recordsOnDisk, sessionJson } from '../support/analytics.ts';
import { webServer, type Person, type WebServer } from '../support/web.ts';
import { pageClient, seedSearchFixture, type SearchFixture } from './web/search.fixture.ts';

let s: WebServer;
let f: SearchFixture;

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' } });
  f = await seedSearchFixture(s);
});
after(() => s.close());

const accountId = async (who: Person): Promise<string> =>
  (await s.call('GET', '/api/admin/accounts', MASTER)).body.accounts.find(
    (a: { email: string }) => a.email === who.email,
  ).id;

/** A result page and a click recorded for the person, and one saved conversation. */
async function leaveTraces(who: Person, word: string): Promise<void> {
  const b = await pageClient(s, who);
  const page = await b.request(`/?q=${encodeURIComponent(`travel ${word}`)}`);
  const data = pageDataOf(page.text).analytics;
  const click = { type: 'click', query_id: data.query_id, result_id: data.results[0], rank: 1, page: 1 };
  const sent = await sessionJson(b, 'POST', '/api/analytics/events', { body: click, csrf: csrfOf(page.text) });
  assert.equal(sent.status, 204);
  const messages = [{ role: 'user', content: `question about ${word}` }];
  const saved = await s.call('POST', '/api/conversations', who.key, { title: `about ${word}`, messages });
  assert.equal(saved.status, 201, JSON.stringify(saved.body));
}

test("deleting an account erases its conversations and analytics records and keeps everyone else's", async () => {
  await leaveTraces(f.ada, 'adatrace');
  await leaveTraces(f.eve, 'evetrace');
  const [adaId, eveId] = [await accountId(f.ada), await accountId(f.eve)];
  const files = async () => (await readdir(conversationsDir(s.dir))).sort();
  assert.deepEqual(await files(), [`${adaId}.log`, `${eveId}.log`].sort());
  await s.services.analytics?.settled();
  assert.ok((await recordsOnDisk(s.dir, s.services.analytics)).some((r) => r.account === adaId));

  const res = await s.call('DELETE', `/api/admin/accounts/${encodeURIComponent(f.ada.email)}`, MASTER);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, { email: f.ada.email, deleted: true, revoked_keys: 1 });

  assert.deepEqual(await files(), [`${eveId}.log`]);
  const records = await recordsOnDisk(s.dir, s.services.analytics);
  assert.equal(records.filter((r) => r.account === adaId).length, 0);
  assert.ok(records.some((r) => r.account === eveId));
  const bytes = await bytesOnDisk(s.dir, s.services.analytics);
  assert.doesNotMatch(bytes, /adatrace/);
  assert.match(bytes, /evetrace/);
  assert.equal((await s.call('GET', '/api/conversations', f.ada.key)).status, 401);
  const eves = await s.call('GET', '/api/conversations', f.eve.key);
  assert.deepEqual(
    eves.body.conversations.map((c: { title: string }) => c.title),
    ['about evetrace'],
  );
});

test('a refused deletion erases nothing', async () => {
  const eveId = await accountId(f.eve);
  const missing = await s.call('DELETE', '/api/admin/accounts/nobody%40example.com', MASTER);
  assert.equal(missing.status, 404);
  const byPerson = await s.call('DELETE', `/api/admin/accounts/${encodeURIComponent(f.eve.email)}`, f.eve.key);
  assert.equal(byPerson.status, 403);
  assert.deepEqual(await readdir(conversationsDir(s.dir)), [`${eveId}.log`]);
  assert.match(await bytesOnDisk(s.dir, s.services.analytics), /evetrace/);
});
