/**
 * The analytics page at /admin/analytics over HTTP: the sign-in page for visitors, a 403 page for
 * people without the administrator role, the report of the chosen period for administrators
 * (German by default, English on request), a bad period answered 422 with a message on the page,
 * and queries and comments with markup shown as text.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { csrfOf, pageDataOf, sessionJson } from '../../support/analytics.ts';
import { HttpBrowser, webServer, type Person, type WebServer } from '../../support/web.ts';
import { pageClient, seedSearchFixture, type SearchFixture } from './search.fixture.ts';

const NOW = Date.parse('2026-11-20T10:00:00.000Z');
const XSS_QUERY = '<img src=x onerror=alert(1)> travel';
const XSS_COMMENT = '</li><script>alert("comment")</script><b>bold</b>';
let s: WebServer;
let f: SearchFixture;
let admin: Person;

before(async () => {
  s = await webServer({ env: { ANALYTICS: 'on' }, now: () => NOW });
  f = await seedSearchFixture(s, NOW);
  admin = await s.person('root@example.com', { roles: ['administrator'], name: 'Root' });
  const ada = await pageClient(s, f.ada, 'en');
  const page = await ada.request(`/?q=${encodeURIComponent(XSS_QUERY)}`);
  assert.ok(pageDataOf(page.text).analytics.results.length > 0);
  const rating = { type: 'feedback', id: 'fb_xss_000001', rating: 'down', comment: XSS_COMMENT, question: '<i>q</i>' };
  const res = await sessionJson(ada, 'POST', '/api/analytics/events', { body: rating, csrf: csrfOf(page.text) });
  assert.equal(res.status, 204);
});
after(() => s.close());

test('visitors are sent to the sign-in page; people without the administrator role get a 403 page', async () => {
  const visitor = await new HttpBrowser(s.base).request('/admin/analytics?from=2026-11-01');
  assert.equal(visitor.status, 303);
  assert.equal(
    visitor.headers.get('location'),
    `/signin?next=${encodeURIComponent('/admin/analytics?from=2026-11-01')}`,
  );
  const ada = await pageClient(s, f.ada, 'en');
  const refused = await ada.request('/admin/analytics');
  assert.equal(refused.status, 403);
  assert.match(refused.headers.get('content-type') ?? '', /text\/html/);
  assert.match(refused.text, /Only administrators can see the search analytics\./);
  assert.doesNotMatch(refused.text, /Top searches/);
});

test('an administrator sees the figures, the lists and the feedback of the period, in German by default', async () => {
  const b = await pageClient(s, admin, 'de');
  b.cookies.delete('es_lang');
  const page = await b.request('/admin/analytics?from=2026-11-20&to=2026-11-20');
  assert.equal(page.status, 200);
  assert.match(page.text, /<html lang="de">/);
  assert.match(page.text, /<h1>Suchanalyse<\/h1>/);
  assert.match(page.text, /<input type="date" id="a-from" name="from" value="2026-11-20"/);
  assert.match(page.text, /Häufigste Suchen/);
  assert.match(page.text, /Rückmeldungen zu Chat-Antworten/);
  const en = await (await pageClient(s, admin, 'en')).request('/admin/analytics');
  assert.match(en.text, /<dt>Searches<\/dt><dd class="figure-value">1<\/dd>/);
  assert.match(en.text, /<dt>Click-through rate<\/dt><dd class="figure-value">0 %<\/dd>/);
  assert.match(en.text, /Recording is on/);
  assert.match(en.text, /Records are kept for 90 days\./);
  assert.match(en.text, /<strong class="feedback-rating">Not helpful<\/strong>/);
});

test('queries, comments and questions with markup are shown as text', async () => {
  const page = await (await pageClient(s, admin, 'en')).request('/admin/analytics');
  assert.match(page.text, /<td class="query-text">&lt;img src=x onerror=alert\(1\)&gt; travel<\/td>/);
  assert.match(
    page.text,
    /&lt;\/li&gt;&lt;script&gt;alert\(&quot;comment&quot;\)&lt;\/script&gt;&lt;b&gt;bold&lt;\/b&gt;/,
  );
  assert.match(page.text, /<p class="feedback-text">&lt;i&gt;q&lt;\/i&gt;<\/p>/);
  assert.doesNotMatch(page.text, /<img src=x/);
  assert.doesNotMatch(page.text, /<script>alert/);
});

test('a bad period is answered 422 with the page and a message, not an error page', async () => {
  const b = await pageClient(s, admin, 'en');
  for (const query of ['from=2026-13-01', 'from=2026-11-20&to=2026-11-01', 'from=2020-01-01', 'to=soon']) {
    const page = await b.request(`/admin/analytics?${query}`);
    assert.equal(page.status, 422, query);
    assert.match(page.text, /This period cannot be shown:/, query);
    assert.doesNotMatch(page.text, /Top searches/, query);
    assert.match(page.text, /<form method="get" action="\/admin\/analytics"/);
  }
});
