/**
 * POST /api/analytics/events: the session's CSRF rules (a personal key needs none), ratings of chat
 * answers with their comment, question and answer, bad input in the spec's envelopes (422 items,
 * 413 and 429 as `{detail}`), and the budgets of an account per minute (60 events refused beyond,
 * 60 result pages not recorded beyond).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { csrfOf, pageDataOf, recordsOnDisk, sessionJson } from '../../support/analytics.ts';
import { HttpBrowser, webServer, type Person, type WebServer } from '../../support/web.ts';
import { doc } from '../../support/documents.ts';
import { MASTER_KEY as MASTER } from '../../support/app.ts';

const NOW = Date.parse('2026-11-20T10:00:00.000Z');
let s: WebServer;
let ada: Person;

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' }, now: () => NOW });
  await s.api('POST', '/datasources', { name: 'wiki', display_name: 'Wiki' });
  ada = await s.person('ada@example.com', { datasources: ['wiki'] });
  const pushed = await s.api('POST', '/documents', {
    documents: [doc({ path_preview: 'https://intranet.example.com/t' })],
  });
  assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
  await s.commit();
});
after(() => s.close());

/** A signed-in page client of a new person, with the search page's CSRF token. */
async function signedIn(who?: Person) {
  const person = who ?? (await s.person(`p${crypto.randomUUID().slice(0, 8)}@example.com`, { datasources: ['wiki'] }));
  const b = new HttpBrowser(s.base);
  assert.equal((await b.signIn(person.email, person.password)).status, 303);
  const page = await b.request('/?q=trains');
  return { person, b, csrf: csrfOf(page.text), data: pageDataOf(page.text).analytics };
}

const rating = (over: Record<string, unknown> = {}) => ({
  type: 'feedback',
  id: 'fb_0123456789abcdef',
  rating: 'down',
  comment: 'Cites the old policy.',
  question: 'How do I book trains?',
  answer: 'Employees book trains for trips under 500 km.',
  ...over,
});

test('a rating is recorded with its comment, the question and the answer', async () => {
  const { b, csrf } = await signedIn(ada);
  const conversation = `conv_${'ab'.repeat(12)}`;
  const res = await sessionJson(b, 'POST', '/api/analytics/events', {
    body: rating({ conversation_id: conversation }),
    csrf,
  });
  assert.equal(res.status, 204, JSON.stringify(res.body));
  const last = (await recordsOnDisk(s.dir, s.services.analytics)).at(-1)!;
  assert.equal(last.type, 'feedback');
  assert.deepEqual(
    { ...last, account: undefined },
    {
      at: new Date(NOW).toISOString(),
      account: undefined,
      ...rating({ conversation_id: conversation }),
    },
  );
  assert.match(last.account ?? '', /^acc_/);
});

test('with the session cookie an event needs the CSRF header and a same-site request; a key needs none', async () => {
  const { b, csrf, data, person } = await signedIn();
  const click = { type: 'click', query_id: data.query_id, result_id: data.results[0], rank: 1, page: 1 };
  const post = (opts: Parameters<typeof sessionJson>[3]) =>
    sessionJson(b, 'POST', '/api/analytics/events', { body: click, ...opts });
  const refused = [
    await post({ csrf: null }),
    await post({ csrf: 'not-the-token' }),
    await post({ csrf, headers: { 'sec-fetch-site': 'cross-site' } }),
    await post({ csrf, headers: { origin: 'https://evil.example.com' } }),
  ];
  assert.deepEqual(
    refused.map((r) => r.status),
    [403, 403, 403, 403],
  );
  for (const r of refused) assert.match(r.body.detail, /CSRF check failed/);
  const none = await fetch(`${s.base}/api/analytics/events`, { method: 'POST', body: JSON.stringify(click) });
  assert.equal(none.status, 401);
  const service = await s.call('POST', '/api/analytics/events', s.key, click);
  assert.equal(service.status, 403);
  assert.equal((await s.call('POST', '/api/analytics/events', person.key, click)).status, 204);
  assert.equal((await post({ csrf })).status, 204);
});

test('bad events get the validation envelope; a large body 413; broken JSON 422', async () => {
  const { b, csrf } = await signedIn();
  const post = (body: unknown) => sessionJson(b, 'POST', '/api/analytics/events', { body, csrf });
  const before = (await recordsOnDisk(s.dir, s.services.analytics)).length;
  const cases: [unknown, unknown[]][] = [
    [{ type: 'view' }, ['body', 'type']],
    [rating({ rating: 'meh' }), ['body', 'rating']],
    [rating({ comment: 'x'.repeat(1001) }), ['body', 'comment']],
    [rating({ answer: 'x'.repeat(4001) }), ['body', 'answer']],
    [rating({ id: 'no spaces allowed' }), ['body', 'id']],
    [rating({ conversation_id: '../etc' }), ['body', 'conversation_id']],
    [rating({ extra: true }), ['body', 'extra']],
    [{ type: 'click', query_id: 'q_x', result_id: '', rank: 0, page: 1 }, ['body', 'query_id']],
  ];
  for (const [body, loc] of cases) {
    const res = await post(body);
    assert.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
    assert.ok(Array.isArray(res.body.detail));
    assert.deepEqual(res.body.detail[0].loc, loc, JSON.stringify(res.body.detail));
  }
  const large = await post(rating({ answer: 'x'.repeat(17_000) }));
  assert.equal(large.status, 413);
  assert.match(large.body.detail, /exceeds the limit of 16384 bytes/);
  const broken = await post('{"type": ');
  assert.equal(broken.status, 422);
  assert.equal(broken.body.detail[0].type, 'json_invalid');
  const missing = await sessionJson(b, 'POST', '/api/analytics/events', { csrf });
  assert.equal(missing.status, 422);
  assert.equal(missing.body.detail[0].type, 'missing');
  assert.equal((await recordsOnDisk(s.dir, s.services.analytics)).length, before, 'nothing recorded');
});

test('an account records at most 60 events a minute, then 429 with Retry-After; others are not held up', async () => {
  const carl = await signedIn();
  for (let i = 0; i < 60; i++) {
    const res = await sessionJson(carl.b, 'POST', '/api/analytics/events', { body: rating(), csrf: carl.csrf });
    assert.equal(res.status, 204, `event ${i + 1}`);
  }
  const over = await sessionJson(carl.b, 'POST', '/api/analytics/events', { body: rating(), csrf: carl.csrf });
  assert.equal(over.status, 429);
  assert.match(over.body.detail, /At most 60 analytics events a minute/);
  assert.ok(Number(over.headers.get('retry-after')) >= 1);
  const dora = await signedIn();
  const other = await sessionJson(dora.b, 'POST', '/api/analytics/events', { body: rating(), csrf: dora.csrf });
  assert.equal(other.status, 204);
});

test('beyond 60 result pages a minute an account still gets its results, unrecorded', async () => {
  const erin = await signedIn(); // one result page already
  for (let i = 1; i < 60; i++) await erin.b.request(`/?q=trains&page=${(i % 3) + 1}`);
  const page = await erin.b.request('/?q=trains');
  assert.equal(page.status, 200);
  assert.match(page.text, /Travel policy/);
  assert.equal(pageDataOf(page.text), undefined);
  const accounts = (await s.call('GET', '/api/admin/accounts', MASTER)).body.accounts;
  const id = accounts.find((a: { email: string }) => a.email === erin.person.email).id;
  const recorded = (await recordsOnDisk(s.dir, s.services.analytics)).filter(
    (r) => r.type === 'query' && r.account === id,
  );
  assert.equal(recorded.length, 60);
});
