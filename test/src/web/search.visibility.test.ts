/**
 * The search page shows exactly what the person's own key gets from the API: a document the
 * person may not see (another group's copy, another person's mail in the thread, a datasource
 * the person is not registered on) never appears, not as a result and not in the duplicates,
 * same-thread or similar lists; and the person who may see them does see them there.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { webServer, type HttpBrowser, type Person, type WebServer } from '../../support/web.ts';
import {
  apiResults,
  HIDDEN_FROM_ADA,
  intranetLinks,
  pageClient,
  seedSearchFixture,
  url,
  type SearchFixture,
} from './search.fixture.ts';

let s: WebServer;
let f: SearchFixture;
let ada: HttpBrowser;
let eve: HttpBrowser;

before(async () => {
  s = await webServer();
  f = await seedSearchFixture(s);
  ada = await pageClient(s, f.ada);
  eve = await pageClient(s, f.eve);
});
after(() => s?.close());

const QUERIES = ['travel', '"travel policy 2026"', 'hamburg offsite', 'travel budget', 'private note', 'trains first'];

/** Every document address in the API's answer: results and all their related lists. */
async function apiLinks(who: Person, query: string): Promise<string[]> {
  const results = await apiResults(s, who, { query, language: 'en', count: '10' });
  return results.flatMap((r) => [
    r.path_preview,
    ...[...r.duplicates, ...r.same_thread_docs, ...r.similar_docs].map((d: { path_preview: string }) => d.path_preview),
  ]);
}

const sorted = (xs: string[]) => [...new Set(xs)].sort();

test("the page links exactly the documents the person's key gets, in results and related lists", async () => {
  for (const [who, client] of [
    [f.ada, ada],
    [f.eve, eve],
  ] as const) {
    for (const q of QUERIES) {
      const html = (await client.request(`/?q=${encodeURIComponent(q)}`)).text;
      assert.deepEqual(sorted(intranetLinks(html)), sorted(await apiLinks(who, q)), `${who.email}: ${q}`);
    }
  }
});

test('a document Ada may not see appears nowhere on her pages; Eve sees the ones of her group and mail', async () => {
  const seenByEve = new Set<string>();
  for (const q of QUERIES) {
    const html = (await ada.request(`/?q=${encodeURIComponent(q)}`)).text;
    for (const hidden of HIDDEN_FROM_ADA) assert.equal(html.includes(hidden), false, `${hidden} on "${q}"`);
    assert.doesNotMatch(html, /Private note|travel budget for 2027|Drafts/);
    for (const link of intranetLinks((await eve.request(`/?q=${encodeURIComponent(q)}`)).text)) seenByEve.add(link);
  }
  // The same queries show Eve the hr copy (as a duplicate) and her mail (as a result or in the thread).
  assert.ok(seenByEve.has(url('wiki/travel-policy-hr')));
  assert.ok(seenByEve.has(url('mail/offsite-3')));
  assert.equal(seenByEve.has(url('board/travel-budget')), false, 'Eve is not registered on the board room either');
});

test('filtering by a datasource the person is not registered on finds nothing', async () => {
  const html = (await ada.request('/?q=travel&ds=board')).text;
  assert.match(html, /No results for “travel”\./);
  assert.equal(html.includes(url('board/travel-budget')), false);
});
